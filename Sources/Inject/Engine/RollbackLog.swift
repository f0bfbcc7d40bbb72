import _InjectShims

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
/// A main-actor slot is emptied on the main actor: the rollback makes it a pending drop of
/// ``MainActorDrops`` under this log's lock, and empties it at once when it runs there; else the
/// main actor empties it before any main-actor consumer reads it.
///
/// The list is kept in the order slots stored, so by epoch: a rollback reads only what stored
/// since its push, and costs in proportion to what it drops, however many slots are listed. It
/// is bounded: each slot is listed once at a time, a rollback removes what it drops, the slots
/// that died and the listings a later store replaced are pruned, amortized, and the list is
/// cleared when no override is left.
final class RollbackLog: Sendable {
  /// The global world's log.
  static let global = RollbackLog()

  private let state = Locked(State())
  /// ``State/pops``, copied there under the lock, for ``pops``, which takes no lock.
  // NB: `nonisolated(unsafe)` because a pointer is not `Sendable`. It is safe: the word is
  // written only under `state`'s lock and read with no lock, each through an atomic access of
  // `_InjectShims`; it is allocated and initialized before `init` returns, and freed by `deinit`,
  // when no other reference to the log exists.
  private nonisolated(unsafe) let popCount = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)

  init() {
    popCount.initialize(to: 0)
  }

  deinit {
    popCount.deallocate()
  }

  /// The log that covers the slots of `world` (`nil`: the global world): its test's, or the
  /// global world's; the worlds of scopes outside tests have none.
  @inline(__always)
  static func covering(_ world: World?) -> RollbackLog? {
    guard let world else { return global }
    return world.testOverrides?.log
  }

  /// The count of rollbacks of the log that covers `world` (none: 0): what a resolution reads
  /// before it reads the configuration, with no retain of the log.
  @inline(__always)
  static func pops(covering world: World?) -> UInt64 {
    guard let world else { return global.pops }
    return world.testOverrides?.log.pops ?? 0
  }

  private struct State: Sendable {
    /// Advanced by every push.
    var epoch: UInt64 = 0
    /// Advanced by every rollback and release: a slot notes it as it stores, a main-actor drop as
    /// it is made (after it advanced it), so that a drop leaves a slot that stored since as it is.
    var clock: UInt64 = 0
    /// How many overrides are in place, in all injections.
    var pushed = 0
    /// How many of them are sendable injections', which a thread other than the main actor may
    /// roll back.
    var sendablePushed = 0
    /// The epoch of the first of the sendable overrides in place, since none was: every
    /// main-actor slot guarded since stored at this epoch or later.
    var sendableSince: UInt64 = 0
    /// How many rollbacks there were.
    var pops: UInt64 = 0
    /// The slots that stored while an override was in place, by identity, each with the epoch it
    /// last stored at.
    var listed: [ObjectIdentifier: Entry] = [:]
    /// Each listing of a slot in `listed`, in the order they were made, so by epoch.
    ///
    /// A rollback reads, from the end, only those made since its push. A slot listed again at a
    /// later epoch leaves its earlier listing here, stale; rollbacks skip it, and the pruning
    /// removes it.
    var order: [Listing] = []
    /// When `order` is pruned, which forgets the stale listings and the released slots.
    var pruning = PruneSchedule()

    /// Lists `slot`, which stores now, at the current epoch.
    mutating func list(_ slot: some EngineSlot) {
      let identifier = ObjectIdentifier(slot)
      if let entry = listed[identifier], entry.epoch == epoch, entry.slot === slot {
        return
      }
      listed[identifier] = Entry(slot: slot, epoch: epoch)
      order.append(Listing(slot: identifier, epoch: epoch))
      if pruning.isDue(order.count) {
        prune()
      }
    }

    /// Removes the stale listings, and the slots released: amortized, so that each store costs
    /// the same however many came before.
    private mutating func prune() {
      // A slot's last listing is its current one: every later store listed it at a later epoch.
      var seen: Set<ObjectIdentifier> = []
      var kept: [Listing] = []
      for listing in order.reversed() where seen.insert(listing.slot).inserted {
        if listed[listing.slot]?.slot != nil {
          kept.append(listing)
        } else {
          listed[listing.slot] = nil
        }
      }
      order = kept.reversed()
      pruning.pruned(leaving: order.count)
    }

    /// The main-actor slots listed at `epoch` or later, still alive, each once: read from the end
    /// of the order, so that it costs in proportion to the listings made since.
    func mainActorSlots(listedSince epoch: UInt64) -> [any EngineSlot] {
      var slots: [any EngineSlot] = []
      for listing in order.reversed() {
        guard listing.epoch >= epoch else { break }
        // A stale listing (the slot listed again later) is skipped: the later one counts.
        if let entry = listed[listing.slot], entry.epoch == listing.epoch, let slot = entry.slot,
          type(of: slot).isMainActorGuarded
        {
          slots.append(slot)
        }
      }
      return slots
    }

    /// The slot that `listing` lists now, taken out of the list; `nil` if the listing is stale
    /// or the slot was released.
    mutating func take(_ listing: Listing) -> (any EngineSlot)? {
      guard let entry = listed[listing.slot], entry.epoch == listing.epoch else { return nil }
      listed[listing.slot] = nil
      return entry.slot
    }
  }

  private struct Entry: Sendable {
    weak var slot: (any EngineSlot)?
    /// The epoch the slot last stored at.
    let epoch: UInt64
  }

  /// One listing of a slot, at the epoch it stored at.
  private struct Listing: Sendable {
    let slot: ObjectIdentifier
    let epoch: UInt64
  }

  /// Advances the epoch for a push of an override of `kind`, and returns it.
  func push(_ kind: InjectionKind) -> UInt64 {
    state.withLock { state in
      state.epoch += 1
      state.pushed += 1
      if case .sendable = kind {
        if state.sendablePushed == 0 {
          state.sendableSince = state.epoch
        }
        state.sendablePushed += 1
      }
      return state.epoch
    }
  }

  /// How many rollbacks there were: read by a resolution before it reads the stacks, so that the
  /// store of what it builds can tell whether a rollback happened since (a layer it read, beneath
  /// the one that stores, may have been popped).
  var pops: UInt64 { _inject_count_acquire(popCount) }

  /// Runs `store`, which stores in `slot` at the clock it is given, with this log's lock held,
  /// lists the slot while an override is in place, and returns what came of it; unless a
  /// rollback happened since `pops` was read: then it stores nothing, and returns
  /// ``StoreOutcome/overlappedByRollback`` without running `store`.
  ///
  /// `store` is told whether a main-actor slot must leave what it stores to the general path:
  /// while a sendable override is in place, which a rollback on another thread may drop.
  func store(
    in slot: some EngineSlot, ifNoRollbackSince pops: UInt64,
    _ store: (_ clock: UInt64, _ isGuarded: Bool) -> StoreOutcome
  ) -> StoreOutcome {
    state.withLock { state in
      guard state.pops == pops else { return .overlappedByRollback }
      if state.pushed > 0 {
        state.list(slot)
      }
      return store(state.clock, state.sendablePushed > 0 && type(of: slot).isMainActorGuarded)
    }
  }

  /// Notes that `count` layers of `kind`, pushed at `epoch` or later, were popped.
  ///
  /// Empties every listed slot that a lock guards and that stored since then, and makes the
  /// main-actor ones pending drops (``MainActorDrops``); once no sendable override is left, lets
  /// the fast path read the main-actor slots guarded since the first was pushed again (every one,
  /// once no override is left): under the lock, so that a main-actor consumer that learns of this
  /// rollback, or of a later one, finds the drops pending. Reads only the listings made since
  /// `epoch` (or since the first sendable override's push, or all, as it pops the last of
  /// either), so that it costs in proportion to what it drops or lets go of.
  ///
  /// Returns what the slots kept, for the caller to release once no state is being changed any
  /// more, and whether it left drops for the main actor (``MainActorDrops/drainSoon()``).
  func pop(_ count: Int, of kind: InjectionKind, pushedAt epoch: UInt64) -> (released: [Any], onMainActor: Bool) {
    takeOff(count, of: kind, poppedSince: epoch)
  }

  /// Notes that `count` overrides of `kind` are no longer in place though no rollback popped
  /// them: they left with the injection or family that pushed them, released with them still on
  /// its global stack.
  ///
  /// A release is not a rollback: it empties nothing, so that what any injection stored while
  /// they were in place keeps its identity, as it would had they stayed. It lets the fast path
  /// read main-actor slots again, and stops listing once no override is left, as a rollback does.
  func release(_ count: Int, of kind: InjectionKind) {
    guard count > 0 else { return }
    if takeOff(count, of: kind, poppedSince: nil).onMainActor {
      MainActorDrops.drainSoon()
    }
  }

  /// Takes `count` overrides of `kind` off the count of those in place.
  ///
  /// Popped by a rollback if `epoch`, their first's push, is given, which empties what stored
  /// since then; else released with their injection, which empties nothing. See
  /// ``pop(_:of:pushedAt:)``.
  private func takeOff(
    _ count: Int, of kind: InjectionKind, poppedSince epoch: UInt64?
  ) -> (released: [Any], onMainActor: Bool) {
    state.withLock { state in
      state.clock += 1
      state.pushed -= count
      if case .sendable = kind {
        state.sendablePushed -= count
      }
      if epoch != nil {
        state.pops += 1
        _inject_count_release(popCount, state.pops)
      }
      var released: [Any] = []
      var onMainActor: [MainActorDrop] = []
      func drop(_ slot: any EngineSlot, empties: Bool) {
        if type(of: slot).isMainActorGuarded {
          onMainActor.append(MainActorDrop(slot: slot, empties: empties, clock: state.clock))
        } else if empties, let kept = slot.emptyUnderLock() {
          released.append(kept)
        }
      }
      if state.pushed == 0 {
        for entry in state.listed.values {
          guard let slot = entry.slot else { continue }
          drop(slot, empties: epoch.map { entry.epoch >= $0 } ?? false)
        }
        (state.listed, state.order, state.pruning) = ([:], [], PruneSchedule())
      } else if let epoch {
        while let listing = state.order.last, listing.epoch >= epoch {
          state.order.removeLast()
          if let slot = state.take(listing) {
            drop(slot, empties: true)
          }
        }
      }
      if state.pushed > 0, case .sendable = kind, state.sendablePushed == 0 {
        // No sendable override is left for a thread other than the main actor to roll back: the
        // main-actor slots guarded since the first was pushed, still listed, are let go of.
        for slot in state.mainActorSlots(listedSince: state.sendableSince) {
          drop(slot, empties: false)
        }
      }
      MainActorDrops.makePending(onMainActor)
      return (released, !onMainActor.isEmpty)
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
  /// Whether the rollback dropped the instance, or only let the fast path read the slot again.
  let empties: Bool
  /// The log's clock when the drop was made: a slot that stored since (a session's next
  /// generation after its end emptied it, or guarded again under a later sendable override) is
  /// left as it is.
  let clock: UInt64
}

/// The main-actor slots that rollbacks dropped, emptied on the main actor before any main-actor
/// consumer reads them.
///
/// A main-actor slot that stores while a sendable override is in place is *guarded*: the fast
/// path leaves it to the general path, which empties what is pending here before reading a
/// guarded slot. So a main-actor consumer that runs after a rollback on another thread (it
/// waited for it, or learned of it from a value the thread set) never gets an instance that the
/// rollback dropped, even while the main actor is busy; and a main-actor task enqueued at once
/// empties them anyway, so that what they hold is released soon.
enum MainActorDrops {
  private static let pending = Locked<[MainActorDrop]>([])

  /// Makes `drops` pending: the rollback log calls it under its lock, so that a rollback on
  /// another thread that finds nothing left to drop (an earlier one took it off the log) returns
  /// only once the drops are pending.
  static func makePending(_ drops: [MainActorDrop]) {
    guard !drops.isEmpty else { return }
    pending.withLock { $0 += drops }
  }

  /// Empties, or stops guarding, the slots of the pending drops on the main actor (those that did
  /// not store since their drop was made): now if the caller runs there, else in a main-actor
  /// task enqueued at once (a main-actor consumer that reads one of them first empties them
  /// itself).
  static func drainSoon() {
    MainActorHop.run { drainPending() }
  }

  /// Empties, or stops guarding, the slots of the pending drops, on the main actor.
  @MainActor
  static func drainPending() {
    apply(
      pending.withLock { pending in
        defer { pending = [] }
        return pending
      })
  }

  /// Empties, or stops guarding, the slots of `drops` that did not store since their drop was
  /// made, on the main actor.
  @MainActor
  private static func apply(_ drops: [MainActorDrop]) {
    var released: [Any] = []
    for drop in drops {
      guard let slot = drop.slot, slot.storedBefore(drop.clock) else { continue }
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
