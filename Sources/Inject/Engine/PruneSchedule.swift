/// When a table that grows with use forgets what it no longer needs.
///
/// Once it holds twice what its last pruning left, and a minimum at least. A pruning costs in
/// proportion to the table, so each addition pays a constant share of it, however many came
/// before, and the table stays within twice what is in use.
///
/// The rule of every such table of the engine, written once; each table says what it forgets.
struct PruneSchedule: Sendable {
  /// The fewest entries a table holds before a pruning.
  private let minimum: Int
  /// The size at which the table is pruned next.
  private var next: Int

  /// A schedule for a table pruned at `minimum` entries at the earliest.
  init(minimum: Int = 64) {
    self.minimum = minimum
    self.next = minimum
  }

  /// Whether a table of `count` entries is pruned now.
  func isDue(_ count: Int) -> Bool { count >= next }

  /// Notes that a pruning left `count` entries.
  mutating func pruned(leaving count: Int) {
    next = max(minimum, count * 2)
  }
}
