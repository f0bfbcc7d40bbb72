/// Runs engine code that must run on the main actor (draining a rollback's main-actor drops,
/// the telemetry, a world's graph check, releasing a world's main-actor part) for a caller on
/// any thread.
enum MainActorHop {
  /// Runs `body` on the main actor: now if the caller runs there, else in a main-actor task
  /// enqueued at once, at high priority.
  ///
  /// The main actor runs its jobs in the order they were enqueued, so what the caller enqueues
  /// afterwards (a `MainActor.run`, a main-actor task) runs after `body`.
  static func run(_ body: @escaping @MainActor @Sendable () -> Void) {
    if MainActorRelease.isOnMainActor {
      // Checked at run time: `assumeIsolated` stops the program rather than run elsewhere.
      MainActor.assumeIsolated(body)
    } else {
      Task(priority: .high) { @MainActor in body() }
    }
  }
}
