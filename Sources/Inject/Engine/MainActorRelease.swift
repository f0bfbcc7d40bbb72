import Dispatch

#if canImport(Foundation)
import Foundation
#endif

/// Releases what the engine holds on the main actor, whichever thread lets it go: instances
/// built on the main actor may have a `deinit` that assumes it.
///
/// Releases there are flat: what a release lets go of and hands here in turn (an injection's
/// layer that delegates to another injection, which held layers of its own) waits in a list
/// until the release before it has returned, so that a chain of any length takes constant stack.
enum MainActorRelease {
  /// What the main actor releases flat.
  @MainActor private static let releases = FlatRelease()

  /// Runs `then`, then releases `value`, then runs `afterwards` once what the release let go of
  /// is released too, on the main actor: now if the caller runs there, else in a main-actor
  /// task.
  ///
  /// For a `deinit` of the engine's objects, which Swift runs wherever the last reference is
  /// dropped (an unstructured task that inherited a scope can end on the thread pool). The
  /// caller moves what it held into `value`, so that nothing but this call holds it.
  static func release<Value>(
    _ value: consuming Value, then: @escaping @MainActor () -> Void = {},
    afterwards: (@MainActor () -> Void)? = nil
  ) {
    // Moved, not copied, into the handoff and from there into the list: a copy left behind would
    // be the last reference and release the value here, outside the list.
    let handoff = Handoff(value: consume value)
    if isOnMainActor {
      // Checked at run time: `assumeIsolated` stops the program rather than run elsewhere.
      MainActor.assumeIsolated {
        then()
        releases.release(handoff.take(), afterwards: afterwards.map(onMainActor))
      }
      return
    }
    Task { @MainActor in
      then()
      releases.release(handoff.take(), afterwards: afterwards.map(onMainActor))
    }
  }

  /// `run`, for the main actor's flat release.
  @MainActor private static func onMainActor(_ run: @escaping @MainActor () -> Void) -> () -> Void {
    // Only the main actor's flat release runs it, which only main-actor code calls. Checked at
    // run time all the same: `assumeIsolated` stops the program rather than run elsewhere.
    { MainActor.assumeIsolated(run) }
  }

  /// Carries what a `deinit` held to the main actor, where it is released.
  ///
  /// NB: `@unchecked Sendable` because what it carries is not `Sendable`. It is safe: `release`
  /// is called from a `deinit`, when nothing else can reach the object's stored properties, so
  /// the handoff holds the only references the engine had, and only the main actor touches
  /// them, to release them.
  private final class Handoff<Value>: @unchecked Sendable {
    private var value: Value?
    init(value: consuming Value) { self.value = consume value }
    /// Moves the value out; `release` takes it once.
    @MainActor func take() -> Value? { value.take() }
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
