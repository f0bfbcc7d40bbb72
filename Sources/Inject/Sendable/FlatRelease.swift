/// Releases what a sendable injection lets go of flat, on the calling thread: what a release
/// lets go of and hands here in turn (a layer that delegates to another injection, which held
/// layers of its own) waits in the thread's list until the release before it has returned, so
/// that a chain of any length takes constant stack.
///
/// ``MainActorRelease`` does the same on the main actor for main-actor injections.
enum FlatRelease {
  /// Releases `value` now, or, while another release runs on this thread, once it has returned.
  static func release(_ value: consuming Any) {
    let builds = CurrentThread.builds
    builds.pendingReleases.append(consume value)
    guard !builds.isReleasing else { return }
    builds.isReleasing = true
    defer { builds.isReleasing = false }
    while let next = builds.pendingReleases.popLast() {
      _ = consume next
    }
  }
}
