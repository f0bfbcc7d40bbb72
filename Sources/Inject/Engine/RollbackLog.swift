/// What makes a rollback exact, for both kinds of injection: no new consumer receives an
/// instance that was stored, in any injection, while a popped override was in place.
///
/// There is one log for the global world (``global``) and one for each test's worlds
/// (``TestOverrides/log``), whichever kind of injection pushes or stores. Every push onto the
/// stacks a log covers advances its epoch, and the pushed layer remembers it. While an override
/// is in place, every slot that stores in the worlds it covers is listed here with the epoch it
/// stored at. Rolling back a layer pushed at epoch `e` empties every listed slot that stored at
/// `e` or later: a dependent built while the override was in place (a singleton repository
/// holding the mock client) is rebuilt by the next consumer, and instances stored before the
/// push keep their identity.
///
/// The rule is by time, not by edge, so it also drops instances that did not depend on the
/// override but were stored while it was in place; those are rebuilt too. The worlds of scopes
/// outside tests have no log: a global rollback never drops what they stored.
///
/// The log is touched when a slot stores, when an override is pushed and when one is rolled
/// back, never when a consumer reads: behind one lock, so that a push, a store and a rollback on
/// different threads are ordered. A build that a rollback overlapped may have resolved an
/// instance that the rollback dropped: it goes to the consumer that asked, and is not stored.
///
/// A main-actor slot is emptied on the main actor: at once when the rollback runs there, else
/// handed to ``MainActorDrops``, which empties it before any main-actor consumer reads it.
///
/// The list is bounded: each slot is listed once, a rollback removes what it drops and what has
/// died, and the list is cleared when no override is left.
final class RollbackLog: Sendable {
  /// The global world's log.
  static let global = RollbackLog()

  private let state = Locked(State())

  private struct State: Sendable {
    /// Advanced by every push.
    var epoch: UInt64 = 0
    /// How many overrides are in place, in all injections.
    var pushed = 0
    /// How many of them are sendable injections', which a thread other than the main actor may
    /// roll back.
    var sendablePushed = 0
    /// How many rollbacks there were.
    var pops: UInt64 = 0
    /// The slots that stored while an override was in place, by identity.
    var listed: [ObjectIdentifier: Entry] = [:]
    /// When `listed` grows to this size, the entries of released slots are removed.
    var pruneAt = 64
  }

  private struct Entry: Sendable {
    weak var slot: (any EngineSlot)?
    /// The epoch the slot last stored at.
    let epoch: UInt64
  }

  /// Advances the epoch for a push of an override of `kind`, and returns it.
  func push(_ kind: InjectionKind) -> UInt64 {
    state.withLock { state in
      state.epoch += 1
      state.pushed += 1
      if case .sendable = kind {
        state.sendablePushed += 1
      }
      return state.epoch
    }
  }

  /// How many rollbacks there were: read before a build, so that its store can tell whether a
  /// rollback happened while it built.
  var pops: UInt64 { state.withLock { $0.pops } }

  /// Runs `store`, which stores in `slot` at the epoch it is given, with this log's lock held,
  /// and lists the slot while an override is in place; unless a rollback happened since `pops`
  /// was read, in which case it stores nothing and returns `nil`.
  ///
  /// `store` is told whether a main-actor slot must leave what it stores to the general path:
  /// while a sendable override is in place, which a rollback on another thread may drop.
  func store<R>(
    in slot: some EngineSlot, ifNoRollbackSince pops: UInt64, _ store: (_ epoch: UInt64, _ isGuarded: Bool) -> R
  ) -> R? {
    state.withLock { state in
      guard state.pops == pops else { return nil }
      if state.pushed > 0 {
        state.listed[ObjectIdentifier(slot)] = Entry(slot: slot, epoch: state.epoch)
        if state.listed.count >= state.pruneAt {
          state.listed = state.listed.filter { $0.value.slot != nil }
          state.pruneAt = max(64, state.listed.count * 2)
        }
      }
      return store(state.epoch, state.sendablePushed > 0 && type(of: slot).isMainActorGuarded)
    }
  }

  /// Notes that `count` layers of `kind`, pushed at `epoch` or later, were popped.
  ///
  /// Empties every listed slot that a lock guards and that stored since then; returns what they
  /// kept, for the caller to release once no state is being changed any more, and the
  /// main-actor slots to empty (or, once no override is left, to let the fast path read again)
  /// on the main actor.
  func pop(
    _ count: Int, of kind: InjectionKind, pushedAt epoch: UInt64
  ) -> (released: [Any], onMainActor: [MainActorDrop]) {
    state.withLock { state in
      state.pushed -= count
      if case .sendable = kind {
        state.sendablePushed -= count
      }
      state.pops += 1
      var released: [Any] = []
      var onMainActor: [MainActorDrop] = []
      let isLast = state.pushed == 0
      state.listed = state.listed.filter { _, entry in
        guard let slot = entry.slot else { return false }
        let isDropped = entry.epoch >= epoch
        guard isDropped || isLast else { return true }
        if type(of: slot).isMainActorGuarded {
          onMainActor.append(MainActorDrop(slot: slot, empties: isDropped))
        } else if isDropped, let kept = slot.emptyUnderLock() {
          released.append(kept)
        }
        return false
      }
      return (released, onMainActor)
    }
  }

  /// How many slots the log lists, those released since the last pruning included.
  var listedCount: Int { state.withLock { $0.listed.count } }
}

/// How many slots the global world's rollback log lists; for tests that it stays bounded.
package func globalRollbackLogCount() -> Int {
  RollbackLog.global.listedCount
}

/// A main-actor slot that a rollback dropped, or no longer lists, to be handled on the main actor.
struct MainActorDrop: Sendable {
  weak var slot: (any EngineSlot)?
  /// Whether the rollback dropped the instance, or only stopped listing the slot.
  let empties: Bool
}

/// The main-actor slots that rollbacks on other threads dropped, emptied on the main actor before
/// any main-actor consumer reads them.
///
/// A main-actor slot that stores while a sendable override is in place is *guarded*: the fast
/// path leaves it to the general path, which empties what is pending here before reading a
/// guarded slot. So a main-actor consumer that runs after a rollback on another thread (it
/// waited for it, or learned of it from a value the thread set) never gets an instance that the
/// rollback dropped, even while the main actor is busy; and a main-actor task enqueued at once
/// empties them anyway, so that what they hold is released soon.
enum MainActorDrops {
  private static let pending = Locked<[MainActorDrop]>([])

  /// Empties, or stops guarding, the slots of `drops` on the main actor: now if the caller runs
  /// there, else before any main-actor consumer reads them.
  static func schedule(_ drops: [MainActorDrop]) {
    guard !drops.isEmpty else { return }
    pending.withLock { $0 += drops }
    MainActorHop.run { drainPending() }
  }

  /// Empties what rollbacks on other threads dropped and left here.
  @MainActor
  static func drainPending() {
    apply(
      pending.withLock { pending in
        defer { pending = [] }
        return pending
      })
  }

  /// Empties, or stops guarding, the slots of `drops`, on the main actor.
  @MainActor
  static func apply(_ drops: [MainActorDrop]) {
    var released: [Any] = []
    for drop in drops {
      guard let slot = drop.slot else { continue }
      if drop.empties, let kept = slot.emptyOnMainActor(ifIn: nil) {
        released.append(kept)
      } else {
        slot.unguard()
      }
    }
    // Released once every slot is changed: a `deinit` may resolve.
    withExtendedLifetime(released) {}
  }
}
