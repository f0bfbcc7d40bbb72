import Dispatch

/// Where one world keeps the instance that one layer of a sendable injection built, for every
/// new consumer on any thread: strongly for a singleton (or a shared value that cannot be held
/// weakly), weakly for a shared object.
///
/// Its first build happens once, however many threads ask at once: the first thread to find the
/// slot empty builds, outside the lock, and the others wait for that build alone, never for a
/// lock that any other slot's build holds (a per-slot once). A thread that asks for the slot it
/// is building itself is inside its own build, and stops with the cycle message
/// (``BuildChain``); a wait that would close a cycle across threads stops with it too
/// (``WaitGraph``).
@usableFromInline
package final class SendableSlot<T: Sendable>: Sendable {
  @usableFromInline
  let state = Locked(State())

  /// An empty slot.
  package init() {}

  @usableFromInline
  struct State: Sendable {
    /// The instance kept strongly.
    @usableFromInline
    var kept: T?
    /// The shared instance, held weakly.
    @usableFromInline
    var shared = WeakSendable()
    /// The build in progress, if any.
    var build: SlotBuild?
    /// The rollback log's epoch when the instance was stored.
    var epoch: UInt64 = 0
    /// Whether a ``SendableRollbackLog`` lists this slot.
    var isListed = false

    init() {}
  }

  /// The instance this slot keeps for every new consumer, if it has one now: the part of a
  /// resolution that runs no code of the user's, inlined into the consumer so that it is
  /// specialized for `T`.
  @inlinable
  var stored: T? {
    state.withLock { state in
      if let kept = state.kept {
        return kept
      }
      // Only `store` sets it, to an instance of `T`: the cast always succeeds.
      return state.shared.object.flatMap { $0 as? T }
    }
  }

  /// What the slot does for a caller, decided under its lock.
  private enum Step {
    case found(T)
    case build(SlotBuild)
    case wait(SlotBuild)
  }

  /// The instance this slot keeps, or a new one from `make`, kept under `strategy`; `make` runs
  /// once however many threads ask at once, on the first that asks, outside the lock.
  ///
  /// A shared instance that another thread releases meanwhile is either taken alive (the weak
  /// reference, loaded under the lock, retains it) or rebuilt. The new instance is stored at
  /// `log`'s epoch, under its lock, so that a rollback either sees the store or precedes it;
  /// one that a rollback overlapped is not stored.
  package func instance(
    of injection: some BuildIdentity, strategy: Strategy, log: SendableRollbackLog? = nil, orElse make: () -> T
  ) -> T {
    while true {
      let step: Step = state.withLock { state in
        if let kept = state.kept {
          return .found(kept)
        }
        // Only `store` sets it, to an instance of `T`: the cast always succeeds.
        if let object = state.shared.object, let instance = object as? T {
          return .found(instance)
        }
        if let build = state.build {
          return .wait(build)
        }
        let build = SlotBuild(injection, on: CurrentThread.id)
        state.build = build
        return .build(build)
      }
      switch step {
      case .found(let instance):
        return instance
      case .wait(let build):
        if build.thread == CurrentThread.id {
          BuildChain.cycle(at: injection)
        }
        WaitGraph.waiting(for: build) { build.wait() }
      case .build(let build):
        let pops = log?.pops ?? 0
        let instance = make()
        let store = { (epoch: UInt64) in
          self.state.withLock { state in
            state.build = nil
            state.epoch = epoch
            return self.store(instance, strategy: strategy, in: &state)
          }
        }
        // What the store replaced (`.some(nil)`: nothing), or `nil` if it did not store.
        let replaced: T??
        if let log {
          replaced = log.recordingStore(in: self, ifNoRollbackSince: pops, store)
        } else {
          replaced = store(0)
        }
        if replaced == nil {
          // Not stored: the next consumer builds anew.
          state.withLock { $0.build = nil }
        }
        build.finish()
        withExtendedLifetime(replaced) {}
        return instance
      }
    }
  }

  /// Keeps `instance` in `state`.
  ///
  /// Weakly if `strategy` is `.shared` and it is an object, else strongly. Returns what it
  /// replaced, for the caller to release after the lock.
  private func store(_ instance: T, strategy: Strategy, in state: inout State) -> T? {
    let replaced = state.kept
    if case .shared = strategy, case let boxed = instance as Any, type(of: boxed) is AnyClass {
      (state.kept, state.shared.object) = (nil, boxed as AnyObject)
    } else {
      (state.kept, state.shared.object) = (instance, nil)
    }
    return replaced
  }

  /// Forgets the instance, so the next consumer gets a new one; returns the kept one, for the
  /// caller to release once no lock is held.
  package func empty() -> T? {
    state.withLock { state in
      state.shared.object = nil
      defer { state.kept = nil }
      return state.kept
    }
  }

  /// Whether the slot has an instance for new consumers now.
  package var holdsInstance: Bool {
    state.withLock { $0.kept != nil || $0.shared.object != nil }
  }
}

extension SendableSlot: RollbackSlot {
  func list() -> Bool {
    state.withLock { state in
      defer { state.isListed = true }
      return !state.isListed
    }
  }

  func unlist(emptyingFrom epoch: UInt64, isLast: Bool) -> (stays: Bool, kept: Any?) {
    state.withLock { state in
      let isEmptied = state.epoch >= epoch
      guard isEmptied || isLast else { return (true, nil) }
      state.isListed = false
      guard isEmptied else { return (false, nil) }
      state.shared.object = nil
      defer { state.kept = nil }
      return (false, state.kept)
    }
  }
}

/// A build in progress in a ``SendableSlot``: the thread running it, and the threads waiting
/// for it.
final class SlotBuild: AwaitedBuild {
  let injection: any BuildIdentity
  /// The thread running the build.
  let thread: UInt
  private let state = Locked(Waiters())

  private struct Waiters: Sendable {
    var isFinished = false
    var semaphores: [DispatchSemaphore] = []
  }

  init(_ injection: some BuildIdentity, on thread: UInt) {
    self.injection = injection
    self.thread = thread
  }

  var builder: UInt? {
    state.withLock { $0.isFinished ? nil : thread }
  }

  /// Blocks the calling thread until the build has finished.
  func wait() {
    let semaphore: DispatchSemaphore? = state.withLock { state in
      guard !state.isFinished else { return nil }
      let semaphore = DispatchSemaphore(value: 0)
      state.semaphores.append(semaphore)
      return semaphore
    }
    semaphore?.wait()
  }

  /// Ends the build, and wakes the threads waiting for it.
  func finish() {
    let semaphores = state.withLock { state in
      state.isFinished = true
      return state.semaphores
    }
    for semaphore in semaphores {
      semaphore.signal()
    }
  }
}

/// An object held weakly, which the engine shares between threads.
// NB: `@unchecked` because a weak reference to `AnyObject` is not `Sendable` to the compiler. It
// is safe: the engine stores in it only instances of a sendable injection's type, which is
// `Sendable`, and reads and writes it only under the lock of the state that holds it.
@usableFromInline
struct WeakSendable: @unchecked Sendable {
  @usableFromInline
  weak var object: AnyObject?

  init() {}
}
