import Dispatch

/// Where one world keeps what one layer of a sendable injection built, for every new consumer
/// on any thread: the storage rule of ``SlotContents``, behind a lock in the slot's own header.
///
/// Its first build happens once, however many threads ask at once: the first thread to find the
/// slot empty builds, outside the lock, and the others wait for that build alone, never for a
/// lock that any other slot's build holds (a per-slot once). A thread that asks for the slot it
/// is building itself is inside its own build, and stops with the cycle message
/// (``BuildChain``); a wait that would close a cycle across threads stops with it too
/// (``WaitGraph``).
// NB: `@unchecked Sendable` because the compiler cannot see that the header's lock guards the
// contents. It is safe: every access to the contents goes through `withLock(_:)`, which holds
// the lock for the whole access, or, in `instance(of:for:build:found:)`, happens between an
// acquire and a release of that lock on every path; the instances it keeps are of a `Sendable`
// type; and `deinit` touches the contents only when no other reference to the slot exists.
@usableFromInline
package final class SendableSlot<T: Sendable>: @unchecked Sendable {
  /// The lock and what it guards, allocated with the slot, at an address that the lock keeps.
  @usableFromInline
  let header = UnsafeMutablePointer<SendableSlotHeader>.allocate(capacity: 1)

  /// An empty slot.
  package static func make() -> SendableSlot<T> {
    SendableSlot()
  }

  /// An empty slot.
  package init() {
    header.initialize(to: SendableSlotHeader())
    PlatformLock.prepare(&header.pointee.lock)
  }

  /// Runs `body` with the header, which it may change, while holding the lock.
  @inlinable
  func withLock<R>(_ body: (inout SendableSlotHeader) -> R) -> R {
    PlatformLock.acquire(&header.pointee.lock)
    defer { PlatformLock.release(&header.pointee.lock) }
    return body(&header.pointee)
  }

  /// The instance this slot keeps for every new consumer, if it has one now: the part of a
  /// resolution that runs no code of the user's, inlined into the consumer so that it is
  /// specialized for `T`.
  @inlinable
  var stored: T? {
    withLock { $0.contents.stored(as: T.self) }
  }

  /// The instance this slot keeps, taken before `found` runs, or the one `build` makes: once
  /// however many threads ask at once, on the first that asks, outside the lock.
  ///
  /// A shared instance that another thread releases meanwhile is either taken alive (the weak
  /// reference, loaded under the lock, retains it) or rebuilt. `build` stores what it keeps
  /// through ``store(_:_:)``; a build it does not store goes to its caller alone.
  ///
  /// `identity` names the injection for a build, a wait and their diagnostics only: the common
  /// case, an instance found, needs nothing of it, and this code is not specialized for the
  /// injection's type, whose metadata would cost a look-up on every call. For the same reason
  /// the lock is taken by hand here, not with a closure whose result (an `Optional<T>`) would
  /// cost one for `T`.
  func instance(
    of identity: () -> any BuildIdentity, for location: CodeLocation, build: () -> T, found: () -> Void
  ) -> T {
    // Made outside the lock when the slot is found empty, then claimed under it.
    var candidate: SlotBuild?
    while true {
      PlatformLock.acquire(&header.pointee.lock)
      let object = header.pointee.contents.isKept ? nil : header.pointee.contents.shared
      if header.pointee.contents.isKept || object != nil {
        let instance = header.pointee.contents.instance(as: T.self, sharedObject: object)
        PlatformLock.release(&header.pointee.lock)
        found()
        return instance
      }
      let step: SlotStep
      if let build = header.pointee.build {
        step = .wait(build)
      } else if let candidate {
        header.pointee.build = candidate
        step = .build(candidate)
      } else {
        step = .prepare
      }
      PlatformLock.release(&header.pointee.lock)
      switch step {
      case .prepare:
        candidate = SlotBuild(identity(), on: CurrentThread.id)
      case .wait(let build):
        let injection = identity()
        if build.thread == CurrentThread.id {
          BuildChain.cycle(at: injection)
        }
        WaitGraph.waiting(for: build, by: injection) { build.wait(by: injection, for: location) }
      case .build(let slotBuild):
        let instance = build()
        // Stored or not, the build is over: the next consumer finds the instance or builds.
        withLock { header in
          if header.build === slotBuild {
            header.build = nil
          }
        }
        slotBuild.finish()
        return instance
      }
    }
  }

  /// The instance this slot keeps, taken before `found` runs; or, if it has none now, what
  /// `missing` returns, which runs with no build of this slot claimed, so that it may resolve
  /// anew (and build here, once).
  func instance(orElse missing: () -> T, found: () -> Void) -> T {
    PlatformLock.acquire(&header.pointee.lock)
    let object = header.pointee.contents.isKept ? nil : header.pointee.contents.shared
    guard header.pointee.contents.isKept || object != nil else {
      PlatformLock.release(&header.pointee.lock)
      return missing()
    }
    let instance = header.pointee.contents.instance(as: T.self, sharedObject: object)
    PlatformLock.release(&header.pointee.lock)
    found()
    return instance
  }

  /// The instance this slot keeps, or one from `make`, kept under `strategy`: the per-slot once
  /// and the storage rule alone, with no injection's configuration around them; for tests.
  package func instance(of injection: some BuildIdentity, strategy: Strategy, orElse make: () -> T) -> T {
    instance(
      of: { injection }, for: CodeLocation(fileID: #fileID, line: #line),
      build: {
        let instance = make()
        let (_, replaced) = store(
          instance, StoreRecord(strategy: strategy, generations: [], own: nil, isGuarded: false, storedAt: 0))
        withExtendedLifetime(replaced) {}
        return instance
      }, found: {})
  }

  /// Keeps `instance` as `record` says; returns how, and what it replaced.
  func store(_ instance: T, _ record: StoreRecord) -> (Keeping, replaced: Any?) {
    withLock { $0.contents.store(instance, record) }
  }

  /// Forgets the instance, so the next consumer gets a new one; returns the kept one.
  package func empty() -> Any? {
    withLock { $0.contents.empty(as: T.self) }
  }

  /// Whether the slot has an instance for new consumers now.
  package var holdsInstance: Bool {
    withLock { $0.contents.holdsInstance }
  }

  /// The session generations the instance belongs to.
  var generations: [SessionGeneration] { withLock { $0.contents.generations } }

  deinit {
    // The instance is `Sendable`: released here, wherever the last reference goes.
    let kept = header.pointee.contents.empty(as: T.self)
    header.pointee.contents.deallocate()
    withExtendedLifetime(kept) {}
    PlatformLock.destroy(&header.pointee.lock)
    header.deinitialize(count: 1)
    header.deallocate()
  }
}

extension SendableSlot: EngineSlot {
  static var isMainActorGuarded: Bool { false }

  func emptyUnderLock() -> Any? {
    guard let (own, kept) = withLock({ $0.contents.empty(as: T.self, ifIn: nil) }) else { return nil }
    return SessionGeneration.watching(own, of: self, kept: kept)
  }

  @MainActor
  func emptyOnMainActor(ifIn generation: SessionGeneration?) -> Any? {
    guard let (own, kept) = withLock({ $0.contents.empty(as: T.self, ifIn: generation) }) else { return nil }
    return SessionGeneration.watching(own, of: self, kept: kept)
  }

  @MainActor
  func storedBefore(_ clock: UInt64) -> Bool { withLock { $0.contents.storedAt < clock } }

  @MainActor
  func unguard() {}

  @MainActor
  var graphInstance: (value: Any, isKept: Bool)? {
    withLock { header in header.contents.stored(as: T.self).map { ($0 as Any, header.contents.isKept) } }
  }

  func keptObjectUnderLock() -> AnyObject? {
    withLock { $0.contents.keptObject(as: T.self) }
  }

  @MainActor
  var keptObjectOnMainActor: AnyObject? { keptObjectUnderLock() }
}

/// What a ``SendableSlot`` does for a caller, decided under its lock: of no generic type, so that
/// code that is not specialized for the slot's type looks up no metadata for it.
enum SlotStep {
  case prepare
  case build(SlotBuild)
  case wait(SlotBuild)
}

/// What a ``SendableSlot`` holds: its lock, its contents, and the build in progress.
@usableFromInline
package struct SendableSlotHeader {
  /// The lock that guards the rest.
  @usableFromInline
  var lock = PlatformLock()
  /// The instance, and what the engine keeps beside it.
  @usableFromInline
  var contents = SlotContents()
  /// The build in progress, if any.
  var build: SlotBuild?
}

/// A build in progress in a ``SendableSlot``: the thread running it, and the threads waiting
/// for it.
final class SlotBuild: AwaitedBuild {
  let injection: any BuildIdentity
  /// The thread running the build.
  let thread: UInt
  /// The injections that thread was building or delegating when it began this build, outermost
  /// first: what a report of a long wait names.
  let chain: [any BuildIdentity]
  private let state = Locked(Waiters())

  private struct Waiters: Sendable {
    var isFinished = false
    var semaphores: [DispatchSemaphore] = []
  }

  init(_ injection: some BuildIdentity, on thread: UInt) {
    self.injection = injection
    self.thread = thread
    self.chain = BuildChain.injections
  }

  var builder: UInt? {
    state.withLock { $0.isFinished ? nil : thread }
  }

  /// Blocks the calling thread, which resolves `waiter` for a consumer at `location`, until the
  /// build has finished; after ``WaitGraph/reportAfter`` seconds, reports the wait and goes on
  /// waiting.
  func wait(by waiter: some BuildIdentity, for location: CodeLocation) {
    let semaphore: DispatchSemaphore? = state.withLock { state in
      guard !state.isFinished else { return nil }
      let semaphore = DispatchSemaphore(value: 0)
      state.semaphores.append(semaphore)
      return semaphore
    }
    guard let semaphore else { return }
    if semaphore.wait(timeout: .now() + WaitGraph.reportAfter) == .timedOut {
      WaitGraph.reportLongWait(of: waiter, for: self, at: location)
      semaphore.wait()
    }
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
