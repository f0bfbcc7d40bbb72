import _InjectShims

/// Whether a sendable injection's resolution may take the fast path, read from any thread: the
/// count of the reasons it may not: the worlds alive, an installed telemetry, and the builds in
/// progress on the general path, of either kind.
///
/// While no world is alive, no task can be in one, so resolution skips reading the current
/// task's world (a task-local, the costliest part of a resolution that finds its instance);
/// while no telemetry is installed, it has no event to report; while no build is in progress,
/// no resolution has a build to note itself in (``BuildRecord``). The count is a C11 atomic of
/// the package's own C module, as Swift's `Atomic` needs macOS 15 or iOS 18: no lock on any
/// system, and no object to retain on each change.
///
/// A task in a world holds it, and the world counted itself before any task could see it, so a
/// task that reads the count as zero is in no world.
@usableFromInline
enum SendableFastPath {
  /// Adds `amount` to the count.
  private static func add(_ amount: Int) {
    _inject_count_fast_path_closers(amount)
  }

  /// The count now.
  private static var count: Int { _inject_fast_path_closers_now() }

  /// Counts a reason to take the general path: a world created, a telemetry installed.
  static func increment() { add(1) }

  /// Uncounts a reason to take the general path: a world released, a telemetry removed.
  static func decrement() { add(-1) }

  /// What a build counts: builds are counted apart from the other reasons, in the high bits, so
  /// that ``isBuilding`` reads them alone (where `Int` has 32 bits, as on watchOS's arm64_32,
  /// above a million worlds and telemetries).
  private static var build: Int { Int.bitWidth == 64 ? 1 << 32 : 1 << 20 }

  /// Counts a build in progress on the general path, of either kind, on any thread.
  static func beginBuild() { add(build) }

  /// Uncounts a build that ended.
  static func endBuild() { add(-build) }

  /// Whether a build of either kind may be in progress on some thread now, which a resolution
  /// must note itself in.
  ///
  /// A build in progress on the calling thread was counted before any resolution inside it ran,
  /// so a resolution that reads no build is inside none.
  static var isBuilding: Bool { count >= build }

  /// Whether no world is alive, no telemetry installed and no build in progress now.
  @usableFromInline
  static var isOpen: Bool { count == 0 }
}
