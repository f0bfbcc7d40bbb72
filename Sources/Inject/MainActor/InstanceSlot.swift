/// Where one world keeps what one layer of a main-actor injection built, for every new
/// consumer; the main actor guards it.
///
/// It reaches its contents through a pointer, so that the fast path, inlined into the
/// consumer's module, reads them with no dynamic exclusivity check. Every access through
/// ``access(_:)`` is instantaneous and none nests inside another on the same slot. The contents
/// do not depend on `T`, so the general path, which is not specialized for `T`, reads them with
/// no generic-metadata lookup.
// NB: `@unchecked Sendable`, so that worlds, the rollback log and session generations, which any
// thread reaches, can hold it. It is safe: every member that reads or writes the contents is
// `@MainActor` (the compiler keeps them on the main actor), and the others (`make`, `deinit`,
// `emptyUnderLock`, which the engine never calls on a main-actor slot and which stops the
// program if it is) touch the contents only when no other reference to the slot exists.
@usableFromInline
final class InstanceSlot<T>: @unchecked Sendable {
  /// The contents, allocated with the slot and freed with it.
  @usableFromInline
  let contents = UnsafeMutablePointer<SlotContents>.allocate(capacity: 1)

  /// An empty slot.
  @inlinable
  nonisolated static func make() -> InstanceSlot<T> {
    InstanceSlot()
  }

  @usableFromInline
  init() {
    contents.initialize(to: SlotContents())
  }

  /// Runs `body` with the contents, which it may change.
  @inlinable @MainActor
  func access<R>(_ body: (inout SlotContents) -> R) -> R {
    body(&contents.pointee)
  }

  /// The instance this slot keeps for every new consumer, if the fast path may take it now.
  @inlinable @MainActor
  var stored: T? {
    access { $0.isGuarded ? nil : $0.stored(as: T.self) }
  }

  /// The instance this slot keeps for every new consumer, taken before `found()` runs; or, if
  /// it has none now, what `missing()` returns.
  ///
  /// For the general path, which is not specialized for `T`: it needs no `Optional<T>`
  /// metadata. `missing` and `found` run outside the slot's access, so they may resolve.
  @MainActor
  func instance(orElse missing: () -> T, found: () -> Void) -> T {
    if contents.pointee.isGuarded {
      // A rollback on another thread may have dropped it: its drop is made first.
      MainActorDrops.drainPending()
    }
    // One load: the object, retained, keeps the shared instance alive until it is returned.
    let isKept = contents.pointee.isKept
    let object = isKept ? nil : contents.pointee.shared
    guard isKept || object != nil else { return missing() }
    // Nothing ran that could store or empty the slot since it was read.
    let taken = access { $0.instance(as: T.self, sharedObject: object) }
    // Taken first: `found` may run code of the user's (a telemetry) that empties the slot.
    found()
    return taken
  }

  /// Keeps `instance` as `record` says; returns how, and what it replaced.
  @MainActor
  func store(_ instance: T, _ record: StoreRecord) -> (Keeping, replaced: Any?) {
    access { $0.store(instance, record) }
  }

  /// Whether the global world holds an instance that this slot keeps.
  @MainActor
  var holdsInstance: Bool { access { $0.holdsInstance } }

  /// The session generations the instance belongs to.
  @MainActor
  var generations: [SessionGeneration] { access { $0.generations } }

  deinit {
    // The instance may have been built on the main actor and have a `deinit` that assumes it,
    // while the last reference to this slot may be dropped anywhere (a world inherited by a
    // task that ends on the thread pool): it is moved out, so that the handoff holds it alone.
    let kept = contents.pointee.empty(as: T.self)
    if let kept {
      MainActorRelease.release(consume kept)
    }
    contents.pointee.deallocate()
    contents.deinitialize(count: 1)
    contents.deallocate()
  }
}

extension InstanceSlot: EngineSlot {
  static var isMainActorGuarded: Bool { true }

  func emptyUnderLock() -> Any? {
    preconditionFailure("A main-actor slot is emptied on the main actor only.")
  }

  func keptObjectUnderLock() -> AnyObject? {
    preconditionFailure("A main-actor slot is read on the main actor only.")
  }

  @MainActor
  var keptObjectOnMainActor: AnyObject? { access { $0.keptObject(as: T.self) } }

  @MainActor
  func emptyOnMainActor(ifIn generation: SessionGeneration?) -> Any? {
    guard let (own, kept) = access({ $0.empty(as: T.self, ifIn: generation) }) else { return nil }
    return SessionGeneration.watching(own, of: self, kept: kept)
  }

  @MainActor
  func storedBefore(_ clock: UInt64) -> Bool {
    access { $0.storedAt < clock }
  }

  @MainActor
  func unguard() {
    access { $0.isGuarded = false }
  }

  @MainActor
  var graphInstance: (value: Any, isKept: Bool)? {
    // `stored` skips a guarded slot, which the graph still shows.
    access { contents in contents.stored(as: T.self).map { ($0 as Any, contents.isKept) } }
  }
}
