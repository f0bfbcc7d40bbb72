/// What makes a rollback of a sendable injection's override exact: no new consumer receives an
/// instance that was stored while a popped override was in place.
///
/// The rule is ``RollbackLog``'s, by epoch, kept behind a lock for slots that any thread
/// stores in: every push advances the epoch, every store while an override is in place lists
/// its slot, and rolling back a layer pushed at epoch `e` empties every listed slot that stored
/// at `e` or later. A slot is stored in while this log's lock is held
/// (``recordingStore(in:_:)``), so a rollback either sees the store or precedes it.
// TODO(#27): one log for both kinds of injection, so that a rollback of a sendable override
// also empties the main-actor dependents built while it was in place.
package final class SendableRollbackLog: Sendable {
  /// The global world's log.
  static let global = SendableRollbackLog()

  private let state = Locked(State())

  private struct State: Sendable {
    var epoch: UInt64 = 0
    var pushed = 0
    var listed: [WeakSlot] = []
    var pruneAt = 64
    /// How many rollbacks there were.
    var pops: UInt64 = 0
  }

  private struct WeakSlot: Sendable {
    weak var slot: (any RollbackSlot)?
  }

  /// Advances the epoch for a push, and returns it.
  func push() -> UInt64 {
    state.withLock { state in
      state.epoch += 1
      state.pushed += 1
      return state.epoch
    }
  }

  /// How many rollbacks there were: read before a build, so that its store can tell whether a
  /// rollback happened while it built.
  var pops: UInt64 { state.withLock { $0.pops } }

  /// Runs `store`, which stores in `slot` at the epoch it is given, with this log's lock held,
  /// and lists the slot while an override is in place; unless a rollback happened since `pops`
  /// was read.
  ///
  /// A build that a rollback overlapped may have resolved an instance that the rollback
  /// dropped: what it built goes to the consumer that asked, and is stored for no other.
  func recordingStore<R>(in slot: some RollbackSlot, ifNoRollbackSince pops: UInt64, _ store: (UInt64) -> R) -> R? {
    state.withLock { state in
      guard state.pops == pops else { return nil }
      if state.pushed > 0 && slot.list() {
        state.listed.append(WeakSlot(slot: slot))
        if state.listed.count >= state.pruneAt {
          state.listed.removeAll { $0.slot == nil }
          state.pruneAt = max(64, state.listed.count * 2)
        }
      }
      return store(state.epoch)
    }
  }

  /// Notes that `count` layers pushed at `epoch` or later were popped.
  ///
  /// Empties every listed slot that stored since then. Returns what the slots kept, for the
  /// caller to release once no lock is held.
  func pop(_ count: Int, pushedAt epoch: UInt64) -> [Any] {
    state.withLock { state in
      state.pushed -= count
      state.pops += 1
      var released: [Any] = []
      let isLast = state.pushed == 0
      state.listed.removeAll { entry in
        guard let slot = entry.slot else { return true }
        let (stays, kept) = slot.unlist(emptyingFrom: epoch, isLast: isLast)
        if let kept {
          released.append(kept)
        }
        return !stays
      }
      return released
    }
  }
}

/// What ``SendableRollbackLog`` needs of a ``SendableSlot``, whatever its type.
protocol RollbackSlot: AnyObject, Sendable {
  /// Marks the slot listed; returns whether it was not already.
  func list() -> Bool
  /// Empties the slot if it stored at `epoch` or later; unlists it if it did, or if `isLast`.
  /// Returns whether it stays listed, and what it kept.
  func unlist(emptyingFrom epoch: UInt64, isLast: Bool) -> (stays: Bool, kept: Any?)
}
