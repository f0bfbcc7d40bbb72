/// Releases flat: what a release lets go of and hands back here in turn (a layer that delegates
/// to another injection, which held layers of its own) waits in the list until the release
/// before it has returned, so that a chain of any length takes constant stack.
///
/// One per place that releases, never shared between threads: the main actor's
/// (``MainActorRelease``) and each thread's (``FlatRelease/onThisThread``).
final class FlatRelease {
  /// What waits to be released while a release runs.
  @exclusivity(unchecked) private var pending: [Any?] = []
  /// Whether a release runs.
  @exclusivity(unchecked) private var isReleasing = false

  /// Releases `value` now, or, while another release runs here, once it has returned.
  ///
  /// Every access to the list is a whole append or pop that runs no other code while it lasts:
  /// a `deinit` that the release runs may call this again, between two of them.
  func release(_ value: consuming Any?) {
    pending.append(consume value)
    guard !isReleasing else { return }
    isReleasing = true
    defer { isReleasing = false }
    while let next = pending.popLast() {
      _ = consume next
    }
  }

  /// The calling thread's: for what a sendable injection lets go of, on whichever thread.
  static var onThisThread: FlatRelease { CurrentThread.builds.releases }
}
