/// How the main actor learns of the worlds that begin and end, on any thread: its count of
/// worlds alive sends its resolutions down the general path (``Resolution/isGeneral``), while the
/// fast path reads one flag of its own.
///
/// A world that begins off the main actor is counted there before any code in it can run on the
/// main actor: its notice is pending under a lock, and a main-actor job that applies every
/// pending notice is enqueued under the same lock, unless one is enqueued already and has not
/// yet taken them. The main actor runs its jobs in the order they were enqueued, so that job runs
/// before anything that code in the world enqueues afterwards. However many worlds begin and end
/// on other threads while the main actor is busy, at most one such job waits.
enum WorldNotices {
  private struct State {
    /// The worlds that began, less those that ended, that the main actor has not counted yet.
    var pending = 0
    /// Whether a main-actor job that counts them is enqueued and has not yet taken them.
    var isEnqueued = false
  }

  private static let state = Locked(State())

  /// Tells the main actor that a world began (`alive`) or ended: now if the caller runs there,
  /// else in a main-actor job, enqueued before this returns unless one that has not yet run is.
  static func note(alive: Bool) {
    let delta = alive ? 1 : -1
    guard !MainActorRelease.isOnMainActor else {
      // Counted with every pending notice, in the order the lock took them: no world is counted
      // ended before it was counted alive.
      let all = state.withLock { state in
        defer { state.pending = 0 }
        return state.pending + delta
      }
      // Checked at run time: `assumeIsolated` stops the program rather than run elsewhere.
      MainActor.assumeIsolated { Resolution.noteWorlds(all) }
      return
    }
    state.withLock { state in
      state.pending += delta
      guard !state.isEnqueued else { return }
      state.isEnqueued = true
      // Enqueued under the lock: a world that finds a job enqueued knows that it is ahead of
      // whatever that world's code enqueues, and that it has not yet taken the notices. Detached:
      // it inherits no task-local, so it keeps no world alive (the caller's, if a world begins
      // inside another) while it waits for a busy main actor.
      Task.detached(priority: .high) { @MainActor in countPending() }
    }
  }

  /// Counts every pending notice, on the main actor.
  @MainActor
  private static func countPending() {
    let all = state.withLock { state in
      defer { (state.pending, state.isEnqueued) = (0, false) }
      return state.pending
    }
    Resolution.noteWorlds(all)
  }
}
