import Dispatch

#if canImport(Foundation)
import Foundation
#endif

/// How the 1.x API reaches the 2.0 engine: one ``Injection`` per key path and strategy,
/// resolved on the main actor.
@available(*, deprecated)
enum LegacyBridge {
  private struct Key: Hashable {
    let keyPath: AnyKeyPath
    let strategy: Strategy
  }

  @MainActor private static var injections: [Key: AnyObject] = [:]

  /// Instances of `.local` + `.permanent` consumers: 1.x kept each until the app ended.
  @MainActor private static var keptForever: [Any] = []

  /// The injection that 1.x consumers of `keyPath` with this strategy share.
  @MainActor
  static func injection<Value>(for keyPath: DefaultValues.KeyPath<Value>, strategy: Strategy) -> Injection<Value> {
    let key = Key(keyPath: keyPath, strategy: strategy)
    if let existing = injections[key] {
      // Only this function stores under `key`, and the key path's type fixes `Value`.
      return Injection<Value>.unerased(existing)
    }
    let injection = Injection<Value>(strategy: strategy, instance: DefaultValues()[keyPath: keyPath])
    injections[key] = injection
    return injection
  }

  @MainActor
  static func keepForever(_ instance: Any) {
    keptForever.append(instance)
  }

  /// Runs `body` on the main actor and returns its result to any caller, as 1.x's
  /// synchronous `instance` did.
  ///
  /// On the main actor it runs `body` directly; elsewhere it waits for the main queue.
  /// `MainActor.assumeIsolated` checks at run time that `body` does run on the main actor (it
  /// stops the program rather than run it elsewhere), so the isolation cannot be wrong.
  ///
  /// > Warning: Called off the main actor while the main actor waits for the caller, this
  /// > deadlocks. Migrate such consumers to `@Instance` first.
  nonisolated static func onMainActor<Value>(_ body: @MainActor () -> Value) -> Value {
    if MainActorRelease.isOnMainActor {
      return MainActor.assumeIsolated { Handoff(value: body()) }.value
    }
    return DispatchQueue.main.sync { MainActor.assumeIsolated { Handoff(value: body()) } }.value
  }

  /// Runs `body` on the main actor with `value` from any caller, as 1.x's `override(with:)` took
  /// a value from any caller.
  nonisolated static func onMainActor<Value>(handing value: Value, to body: @MainActor (Value) -> Void) {
    let handoff = Handoff(value: value)
    onMainActor { body(handoff.value) }
  }
}

/// Carries a 1.x instance between the main actor and its 1.x consumer.
///
/// NB: `@unchecked Sendable` because 1.x handed instances to consumers on any thread, and its
/// code must run unchanged, and took replacements (`override(with:)`) from any thread. The engine
/// itself never touches an instance after building it, nor a replacement: it only keeps a
/// reference (or a weak one) to hand out again. So this handoff adds no access
/// of its own; whether two consumers on different threads use one non-Sendable instance safely
/// is up to the consumers, exactly as it was in 1.x. `@Instance` lets the compiler check that.
private struct Handoff<Value>: @unchecked Sendable {
  let value: Value
}

/// Read back from the bridge's table, which holds the injections of every value type. Safe:
/// only ``LegacyBridge/injection(for:strategy:)`` stores there, and the key path in the key
/// fixes the value type.
extension Injection: Unerasable {}
