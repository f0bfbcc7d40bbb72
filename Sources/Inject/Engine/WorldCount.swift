public import _InjectShims

/// How many worlds are alive, read from any thread with one relaxed load: so that a consumer
/// made outside every world while none is alive (the common case) reads no task-local to learn
/// it.
///
/// A C atomic (`_InjectShims`), inlined into the consumer's module, on every deployment target.
@usableFromInline
enum WorldCount {
  /// Whether no world is alive now: then the current task is in none.
  @inlinable
  static var isNoneAlive: Bool { _inject_no_world_alive() }

  /// Counts a world made.
  static func increment() { _inject_count_worlds(1) }

  /// Uncounts a world released.
  static func decrement() { _inject_count_worlds(-1) }
}
