/// What makes a rollback exact: no new consumer receives an instance that was stored, in any
/// injection, while a popped override was in place.
///
/// There is one log for the global world (``global``) and one for each test's worlds
/// (``TestOverrides/log``). Every push onto the stacks a log covers advances its ``epoch``, and
/// the pushed layer remembers it. Every instance stored in the worlds it covers remembers the
/// epoch it was stored at, and while an override is in place, its slot is listed here. Rolling
/// back a layer pushed at epoch `e` empties every listed slot that stored at `e` or later: a
/// dependent built while the override was in place (a singleton repository holding the mock
/// client) is rebuilt by the next consumer, and instances stored before the push keep their
/// identity.
///
/// The rule is by time, not by edge, so it also drops instances that did not depend on the
/// override but were stored while it was in place; those are rebuilt too. The worlds of scopes
/// outside tests have no log: a global rollback never drops what they stored.
///
/// The list is bounded: each slot is listed once, a rollback removes what it drops and what has
/// died, and the list is cleared when no override is left.
@MainActor
final class RollbackLog {
  /// The global world's log.
  static let global = RollbackLog()

  /// Advanced by every push.
  private(set) var epoch: UInt64 = 0
  /// How many overrides are in place, in all injections.
  private var pushed = 0
  /// The slots that stored while an override was in place.
  private var listed: [ListedSlot] = []
  /// When `listed` grows to this size, the entries of released slots are removed.
  private var pruneAt = 64

  /// Advances the epoch for a push, and returns it.
  func push() -> UInt64 {
    epoch += 1
    pushed += 1
    return epoch
  }

  /// Notes that `slot` stored an instance now, at ``epoch``.
  func noteStore(in slot: some EmptiableSlot & AnyObject) {
    guard pushed > 0, !slot.isLogged else { return }
    slot.isLogged = true
    listed.append(ListedSlot(slot: slot))
    if listed.count >= pruneAt {
      listed.removeAll { $0.slot == nil }
      pruneAt = max(64, listed.count * 2)
    }
  }

  /// Notes that `count` layers pushed at `epoch` or later were popped.
  ///
  /// Empties every listed slot that stored since then. Returns what the slots kept strongly,
  /// for the caller to release once no state is being changed any more.
  func pop(_ count: Int, pushedAt epoch: UInt64) -> [Any] {
    pushed -= count
    var released: [Any] = []
    listed.removeAll { entry in
      guard let slot = entry.slot else { return true }
      if pushed == 0 || slot.storedEpoch >= epoch {
        slot.isLogged = false
        if slot.storedEpoch >= epoch, let kept = SessionGeneration.empty(slot) {
          released.append(kept)
        }
        return true
      }
      return false
    }
    return released
  }

  private struct ListedSlot {
    weak var slot: (any EmptiableSlot)?
  }

  /// How many slots the log lists, those released since the last pruning included.
  var listedCount: Int { listed.count }
}

/// How many slots the global world's rollback log lists; for tests that it stays bounded.
@MainActor
package func globalRollbackLogCount() -> Int {
  RollbackLog.global.listedCount
}

/// What ``RollbackLog`` needs of an ``InstanceSlot``, whatever its type.
@MainActor
protocol EmptiableSlot: AnyObject {
  var isLogged: Bool { get set }
  var storedEpoch: UInt64 { get }
  /// The session generations the stored instance belongs to.
  var generations: [SessionGeneration] { get }
  /// The generation whose own instance the slot holds, if it holds one of a session's.
  var ownGeneration: SessionGeneration? { get }
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
