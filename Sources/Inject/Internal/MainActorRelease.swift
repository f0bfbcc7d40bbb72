import Dispatch

#if canImport(Foundation)
import Foundation
#endif

/// Releases what the engine holds on the main actor, whichever thread lets it go: instances
/// built on the main actor may have a `deinit` that assumes it.
enum MainActorRelease {
  /// Releases `value`, then runs `then`, on the main actor: now if the caller runs there, else
  /// in a main-actor task.
  ///
  /// For a `deinit` of the engine's main-actor objects, which Swift runs wherever the last
  /// reference is dropped (an unstructured task that inherited a scope can end on the thread
  /// pool).
  static func release<Value>(_ value: consuming Value, then: @escaping @MainActor () -> Void = {}) {
    if isOnMainActor {
      // Checked at run time: `assumeIsolated` stops the program rather than run elsewhere.
      MainActor.assumeIsolated { then() }
      return
    }
    let handoff = Handoff(value: value)
    Task { @MainActor in
      handoff.drop()
      then()
    }
  }

  /// Carries what a `deinit` held to the main actor, where it is released.
  ///
  /// NB: `@unchecked Sendable` because what it carries is not `Sendable`. It is safe: `release`
  /// is called from a `deinit`, when nothing else can reach the object's stored properties, so
  /// the handoff holds the only references the engine had, and only the main-actor task touches
  /// them, to release them.
  private final class Handoff<Value>: @unchecked Sendable {
    private var value: Value?
    init(value: consuming Value) { self.value = value }
    @MainActor func drop() { value = nil }
  }

  /// Marks the main queue, so that code can tell whether it runs on it: on Linux the main
  /// actor's jobs may run on the main queue without being on the main thread.
  private static let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller runs where the main actor runs: on the main queue or the main thread.
  static var isOnMainActor: Bool {
    #if canImport(Foundation)
    if Thread.isMainThread { return true }
    #endif
    return DispatchQueue.getSpecific(key: mainQueueKey) == true
  }
}
