/// Releases flat: what a release lets go of and hands back here in turn (a layer that delegates
/// to another injection, which held layers of its own) waits in the list until the release
/// before it has returned, so that a chain of any length takes constant stack.
///
/// One per place that releases, never shared between threads: the main actor's
/// (``MainActorRelease``) and each thread's (``FlatRelease/onThisThread``).
final class FlatRelease {
  /// What waits while a release runs: the last first.
  @exclusivity(unchecked) private var pending: [Pending] = []
  /// Whether a release runs.
  @exclusivity(unchecked) private var isReleasing = false

  private enum Pending {
    /// A value to release.
    case value(Any?)
    /// What runs once the values listed after it, and what their release let go of, are
    /// released.
    case afterwards(() -> Void)
  }

  /// Releases `value`, then runs `afterwards`, if any, once what the release let go of is
  /// released too: now, or, while another release runs here, once it has returned.
  ///
  /// Every access to the list is a whole append or pop that runs no other code while it lasts:
  /// a `deinit` that the release runs may call this again, between two of them.
  func release(_ value: consuming Any?, afterwards: (() -> Void)? = nil) {
    // Listed beneath the value: run once the value, and all that its release listed, are gone.
    if let afterwards {
      pending.append(.afterwards(afterwards))
    }
    pending.append(.value(consume value))
    guard !isReleasing else { return }
    isReleasing = true
    defer { isReleasing = false }
    while let next = pending.popLast() {
      if case .afterwards(let run) = next {
        run()
      }
    }
    // A release of many (a family's pruned members, after a world ended) leaves no large list.
    if pending.capacity > 64 {
      pending = []
    }
  }
}
