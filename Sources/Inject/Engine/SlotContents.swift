/// What a slot of either kind holds, and the storage rule they share: strongly for a singleton,
/// a session's instance or a shared value that cannot be held weakly; weakly for a shared object.
///
/// Nothing here depends on the instance's type, so the general path, which is not specialized
/// for it, reads a slot with no generic-metadata lookup; the instance's bits live apart, in
/// ``bits``. The slot that holds the contents guards them: the main actor for
/// ``InstanceSlot``, a lock for ``SendableSlot``.
@usableFromInline
struct SlotContents {
  /// The shared instance, held weakly so that it is released after its last holder.
  @usableFromInline
  weak var shared: AnyObject?
  /// Room for two instances of the slot's type, allocated on the first store.
  ///
  /// The first holds the kept instance (owned) or the shared one (an unowned copy of its bits,
  /// valid exactly while `shared` is not `nil`); the second is scratch room. Reading the shared
  /// instance back costs a copy of bits instead of the dynamic cast from `AnyObject` (a
  /// protocol-conformance lookup when the type is an existential).
  @usableFromInline
  var bits: UnsafeMutableRawPointer?
  /// Whether `bits` holds an instance kept strongly.
  @usableFromInline
  var isKept = false
  /// Whether the fast path must leave the slot to the general path: a main-actor slot that
  /// stored while a sendable override was pushed, which a rollback on another thread may drop
  /// (``MainActorDrops``).
  @usableFromInline
  var isGuarded = false
  /// The clock of the rollback log that covers the slot's world at its last store; 0 if no log
  /// covers it.
  ///
  /// Comparable with a drop's clock because a slot has one log for its whole life: its world's
  /// (`RollbackLog.covering`), whose test overrides, and so log, are fixed when the world's
  /// configuration is made; only that log lists the slot, so only it makes drops of it.
  var storedAt: UInt64 = 0
  /// The ``SessionGeneration``s the instance belongs to: its own, for a `.session` instance, and
  /// those its build resolved; empty while the slot holds nothing.
  var generations: [SessionGeneration] = []
  /// The ``SessionGeneration`` whose own instance this is, if it is one of a session's.
  var ownGeneration: SessionGeneration?

  @inlinable
  init() {}

  /// Whether the slot has an instance for new consumers now.
  var holdsInstance: Bool { isKept || shared != nil }

  /// The instance kept for every new consumer, if there is one now: for the fast path,
  /// specialized for `T`.
  @inlinable
  func stored<T>(as _: T.Type) -> T? {
    guard let bits else { return nil }
    let instance = bits.assumingMemoryBound(to: T.self)
    if isKept {
      return instance.pointee
    }
    guard let object = shared else { return nil }
    return Self.taking(object, from: instance)
  }

  /// The instance kept for every new consumer, as `T`, if `isKept` is true or `object` is the
  /// shared one, just loaded from the weak reference: for the general path, which needs no
  /// `Optional<T>` metadata this way.
  func instance<T>(as _: T.Type, sharedObject object: AnyObject?) -> T {
    // The caller found the slot keeping an instance, or `object` alive: the bits are allocated.
    assert(bits != nil, "Inject: a slot read for its instance holds none")
    assert(isKept == (object == nil), "Inject: a slot read both as keeping its instance and as sharing it")
    let instance = bits.unsafelyUnwrapped.assumingMemoryBound(to: T.self)
    guard let object else { return instance.pointee }
    return Self.taking(object, from: instance)
  }

  /// The shared instance that `object`, just loaded from the weak reference, is, as a `T`.
  ///
  /// Loading `object` retained the instance, and that retain becomes the returned value's: the
  /// bits are taken as they are, without another retain, and `object` is not released. Safe:
  /// `instance` holds the bits of the instance that `object` is (an unowned copy), and `object`
  /// keeps it alive until the returned value owns it. The bits are copied to the scratch room
  /// after them and taken from there, so that the first room keeps them for the next consumer.
  @inlinable
  static func taking<T>(_ object: consuming AnyObject, from instance: UnsafeMutablePointer<T>) -> T {
    assert(copy(at: instance, isOf: object), "Inject: a slot's unowned copy is not of its shared instance")
    _ = Unmanaged.passRetained(consume object)
    let scratch = instance + 1
    UnsafeMutableRawPointer(scratch).copyMemory(from: instance, byteCount: MemoryLayout<T>.size)
    return scratch.move()
  }

  /// Whether `instance` holds the bits of `object` (as a `T`): what the unowned copy of a shared
  /// instance must hold while `shared` is not `nil`.
  ///
  /// For assertions only: it copies the instance (a retain, then a release), which is safe only
  /// while the caller keeps `object` alive.
  @usableFromInline
  static func copy<T>(at instance: UnsafeMutablePointer<T>, isOf object: AnyObject) -> Bool {
    instance.pointee as AnyObject === object
  }

  /// The object kept for every new consumer, if the instance is one and belongs to no session
  /// generation: what an ending world leaves for a world made again (``WorldStorage``).
  func keptObject<T>(as _: T.Type) -> AnyObject? {
    guard generations.isEmpty, let instance = stored(as: T.self) else { return nil }
    let boxed = instance as Any
    return type(of: boxed) is AnyClass ? boxed as AnyObject : nil
  }

  /// Keeps `instance` for later consumers, as `record` says: weakly if it is a `.shared`
  /// object, else strongly.
  ///
  /// Returns how, and what it replaced, for the caller to release once
  /// no state is being changed any more.
  mutating func store<T>(_ instance: T, _ record: StoreRecord) -> (Keeping, replaced: Any?) {
    var object: AnyObject?
    if case .shared = record.strategy {
      let boxed = instance as Any
      object = type(of: boxed) is AnyClass ? boxed as AnyObject : nil
    }
    generations = record.generations
    ownGeneration = record.own
    (isGuarded, storedAt) = (record.isGuarded, record.storedAt)
    let bits = self.bits?.assumingMemoryBound(to: T.self) ?? UnsafeMutablePointer<T>.allocate(capacity: 2)
    self.bits = UnsafeMutableRawPointer(bits)
    let replaced: Any? = isKept ? bits.move() : nil
    if let object {
      // An unowned copy of the bits, without a retain; see `taking(_:from:)`.
      withUnsafeBytes(of: instance) {
        UnsafeMutableRawBufferPointer(start: bits, count: $0.count).copyMemory(from: $0)
      }
      // `instance` keeps `object` alive here, so reading the copy back is safe.
      assert(Self.copy(at: bits, isOf: object), "Inject: a shared instance's bits copied wrong")
      (isKept, shared) = (false, object)
      return (.weakly, replaced)
    }
    bits.initialize(to: instance)
    (isKept, shared) = (true, nil)
    return (.strongly, replaced)
  }

  /// Forgets the instance, so the next consumer gets a new one; returns the kept one, for the
  /// caller to release once no state is being changed any more.
  mutating func empty<T>(as _: T.Type) -> Any? {
    (generations, ownGeneration, isGuarded) = ([], nil, false)
    shared = nil
    guard isKept, let bits else { return nil }
    isKept = false
    return bits.assumingMemoryBound(to: T.self).move()
  }

  /// Forgets the instance, as ``empty(as:)`` does, if it belongs to `generation` (whatever it
  /// belongs to, if `nil`); returns the generation whose own instance it was, if any, and what
  /// it kept; `nil` if it does not belong to `generation`.
  mutating func empty<T>(as _: T.Type, ifIn generation: SessionGeneration?) -> (own: SessionGeneration?, kept: Any?)? {
    if let generation, !generations.contains(where: { $0 === generation }) {
      return nil
    }
    let own = ownGeneration
    return (own, empty(as: T.self))
  }

  /// Frees the bits; what is left in them is an unowned copy or nothing.
  ///
  /// Call it once the kept instance, if any, was moved out (``empty(as:)``), as the slot ends.
  func deallocate() {
    assert(!isKept, "Inject: a slot's bits freed while they keep an instance")
    bits?.deallocate()
  }
}

/// How a slot keeps an instance.
enum Keeping { case weakly, strongly }

/// What a store keeps beside the instance.
struct StoreRecord {
  /// The strategy of the layer that built it.
  let strategy: Strategy
  /// The session generations it belongs to.
  let generations: [SessionGeneration]
  /// The generation whose own instance it is, for a session's.
  let own: SessionGeneration?
  /// Whether a main-actor slot must leave it to the general path; see ``SlotContents/isGuarded``.
  let isGuarded: Bool
  /// The clock of the rollback log at the store; see ``SlotContents/storedAt``.
  let storedAt: UInt64
}

/// A slot of either kind, as the rollback log, the session generations and the graph see it,
/// whatever its type.
///
/// Read back from a world's parts, which hold the slots of both doors' layers, type-erased
/// (``Unerasable``): each door reads the slots of its own layers only, which it made.
protocol EngineSlot: Unerasable, Sendable {
  /// Whether the main actor guards the slot, rather than a lock.
  static var isMainActorGuarded: Bool { get }

  /// Empties the slot now, if a lock guards it; returns what it kept. Never called on a
  /// main-actor slot, which ``MainActorDrops`` empties.
  func emptyUnderLock() -> Any?

  /// Empties the slot, on the main actor, which may touch a slot of either kind; unless
  /// `generation` is given and the instance does not belong to it. Watches the instance for
  /// the survivor report if it was one of a session's own. Returns what it kept.
  @MainActor func emptyOnMainActor(ifIn generation: SessionGeneration?) -> Any?

  /// Whether the slot last stored while its rollback log's clock was below `clock`: before the
  /// rollback or release that made a drop at `clock`.
  @MainActor func storedBefore(_ clock: UInt64) -> Bool

  /// Lets the fast path read the slot again: no sendable override that was in place when it
  /// stored is left.
  @MainActor func unguard()

  /// The instance the slot keeps for new consumers, boxed, and whether it keeps it strongly;
  /// for the graph, on the main actor.
  @MainActor var graphInstance: (value: Any, isKept: Bool)? { get }

  /// The object the slot keeps for new consumers, if any (``SlotContents/keptObject(as:)``), now,
  /// if a lock guards it. Never called on a main-actor slot.
  func keptObjectUnderLock() -> AnyObject?

  /// The object the slot keeps for new consumers, if any, on the main actor.
  @MainActor var keptObjectOnMainActor: AnyObject? { get }
}
