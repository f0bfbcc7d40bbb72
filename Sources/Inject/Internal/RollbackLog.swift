/// What makes a global rollback exact: no new consumer receives an instance that was stored, in
/// any injection, while a popped override was in place.
///
/// Every global push advances ``epoch``, and the pushed layer remembers it. Every instance the
/// global world stores remembers the epoch it was stored at, and while any global override is
/// in place, its slot is listed here. Rolling back a layer pushed at epoch `e` empties every
/// listed slot that stored at `e` or later: a dependent built while the override was in place
/// (a singleton repository holding the mock client) is rebuilt by the next consumer, and
/// instances stored before the push keep their identity.
///
/// The rule is by time, not by edge, so it also drops instances that did not depend on the
/// override but were stored while it was in place; those are rebuilt too. Scope worlds keep
/// their own slots and take no part.
///
/// The list is bounded, also while an override stays pushed for good: each slot is listed once,
/// a rollback removes what it drops and what has died, the list is cleared when no global
/// override is left, and a list grown to twice its last live length drops its dead slots.
@MainActor
enum RollbackLog {
  /// Advanced by every global push.
  private(set) static var epoch: UInt64 = 0
  /// How many global overrides are in place, in all injections.
  private static var pushed = 0
  /// The slots that stored while a global override was in place.
  private static var listed: [ListedSlot] = []
  /// The length at which ``noteStore(in:)`` drops the dead slots from `listed` before listing
  /// another: twice the live length after the last drop, so that each listing costs constant
  /// time on average.
  private static var compactedAt = minimumCompactedAt
  private static let minimumCompactedAt = 64

  /// Advances the epoch for a push, and returns it.
  static func push() -> UInt64 {
    epoch += 1
    pushed += 1
    return epoch
  }

  /// Notes that `slot` of the global world stored an instance now.
  static func noteStore(in slot: some EmptiableSlot & AnyObject) {
    guard pushed > 0, !slot.isLogged else { return }
    slot.isLogged = true
    if listed.count >= compactedAt {
      // Injections and layers that come and go while an override stays in place would
      // otherwise leave their dead slots here until the next rollback.
      listed.removeAll { $0.slot == nil }
      compactedAt = max(minimumCompactedAt, 2 * listed.count)
    }
    listed.append(ListedSlot(slot: slot))
  }

  /// Notes that `count` layers pushed at `epoch` or later were popped.
  ///
  /// Empties every listed slot that stored since then. Returns what the slots kept strongly, for the caller
  /// to release once no state is being changed any more.
  static func pop(_ count: Int, pushedAt epoch: UInt64) -> [Any] {
    pushed -= count
    var released: [Any] = []
    listed.removeAll { entry in
      guard let slot = entry.slot else { return true }
      if pushed == 0 || slot.storedEpoch >= epoch {
        slot.isLogged = false
        if slot.storedEpoch >= epoch, let kept = slot.emptyErased() {
          released.append(kept)
        }
        return true
      }
      return false
    }
    compactedAt = max(minimumCompactedAt, 2 * listed.count)
    return released
  }

  private struct ListedSlot {
    weak var slot: (any EmptiableSlot)?
  }
}

/// What ``RollbackLog`` needs of an ``InstanceSlot``, whatever its type.
@MainActor
protocol EmptiableSlot: AnyObject {
  var isLogged: Bool { get set }
  var storedEpoch: UInt64 { get }
  /// Forgets the instance; returns the kept one.
  func emptyErased() -> Any?
}

extension InstanceSlot: EmptiableSlot {
  var isLogged: Bool {
    get { access { $0.isLogged } }
    set { access { $0.isLogged = newValue } }
  }

  var storedEpoch: UInt64 { access { $0.epoch } }

  func emptyErased() -> Any? { empty() }
}
