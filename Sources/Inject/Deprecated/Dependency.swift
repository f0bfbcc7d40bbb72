/// A 1.x consumer's dependency: its instance, resolved on first access.
///
/// ```swift
/// @Injected(\.networking) var network
/// network.instance.fetch()
/// ```
///
/// Like 1.x's, the class is isolated to the main actor, so it is `Sendable`: an actor can
/// `await` its `@Injected` property and keep what it gets. ``instance`` and
/// ``override(with:)`` can be called from anywhere; they run on the main actor.
@_documentation(visibility: private)
@available(*, deprecated, message: "Read the @Instance property directly instead; see MIGRATION.md")
@MainActor
public final class Dependency<Value> {
  // NB: `nonisolated(unsafe)` only because the `nonisolated` initializer (which `@Injected` in
  // actors and nonisolated classes needs) must store this key path, which is not `Sendable`. It
  // is safe: a key path is immutable once formed, the initializer stores it before anyone else
  // can see it, and the only other use is `resolve()`, on the main actor, where the key path's
  // getter (a `DefaultValues` property, main-actor-isolated) runs.
  private nonisolated(unsafe) let keyPath: DefaultValues.KeyPath<Value>
  private let strategy: Strategy
  private let keptForever: Bool
  private let location: CodeLocation
  private var resolved: Value?

  nonisolated init(
    _ keyPath: DefaultValues.KeyPath<Value>, scope: Scope, lifespan: Lifespan, at location: CodeLocation
  ) {
    self.keyPath = keyPath
    self.location = location
    switch (scope, lifespan) {
    case (.local, .temporary): (strategy, keptForever) = (.onDemand, false)
    case (.local, .permanent): (strategy, keptForever) = (.onDemand, true)
    case (.shared, .temporary): (strategy, keptForever) = (.shared, false)
    case (.shared, .permanent): (strategy, keptForever) = (.singleton, false)
    }
  }

  /// The instance, resolved on the first access and then kept by this consumer.
  ///
  /// Resolved on the main actor; read off the main actor, it waits for the main queue.
  public nonisolated var instance: Value {
    LegacyBridge.onMainActor { self.resolve() }
  }

  /// Replaces the instance for this consumer only: ``instance`` returns `value` from now on.
  ///
  /// ```swift
  /// consumer.network.override(with: MockNetworking())
  /// ```
  ///
  /// - Parameter value: The instance to use.
  public nonisolated func override(with value: Value) {
    LegacyBridge.onMainActor(handing: value) { self.resolved = $0 }
  }

  private func resolve() -> Value {
    if let resolved {
      return resolved
    }
    let instance = LegacyBridge.injection(for: keyPath, strategy: strategy).resolve(from: location)
    if keptForever {
      LegacyBridge.keepForever(instance)
    }
    resolved = instance
    return instance
  }
}
