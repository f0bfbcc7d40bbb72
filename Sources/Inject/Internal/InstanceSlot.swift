/// Where one world keeps the instance that one layer built for every new consumer: strongly for
/// a singleton (or a shared value that cannot be held weakly), weakly for a shared object.
///
/// Configuration and storage are apart: a ``Layer`` says how to build, a slot keeps what was
/// built. The global world keeps its slot beside each layer, so that the resolution fast path
/// reaches it in one load; each scope world keeps its own slots (``World``).
///
/// A `ManagedBuffer`, so that the fast path, inlined into the consumer's module, reads it with
/// no dynamic exclusivity check. Every access through ``access(_:)`` is instantaneous and none
/// nests inside another on the same slot. Its header does not depend on `T`, so the general
/// path, which is not specialized for `T`, reads it with no generic-metadata lookup. Not
/// `Sendable`: the compiler confines each slot to the main actor, its owner's isolation.
@usableFromInline
final class InstanceSlot<T>: ManagedBuffer<InstanceSlotContents, Void> {
  /// An empty slot.
  @inlinable
  static func make() -> InstanceSlot<T> {
    // `create` allocates an instance of the class it is called on: `InstanceSlot<T>`.
    unsafeDowncast(create(minimumCapacity: 0) { _ in InstanceSlotContents() }, to: InstanceSlot<T>.self)
  }

  /// Runs `body` with the contents, which it may change.
  @inlinable
  func access<R>(_ body: (inout InstanceSlotContents) -> R) -> R {
    withUnsafeMutablePointerToHeader { body(&$0.pointee) }
  }

  /// The instance this slot keeps for every new consumer, if it has one now.
  ///
  /// For the fast path, specialized for `T`; the general path asks ``holdsInstance`` and reads
  /// ``instance``, which need no `Optional<T>` metadata.
  @inlinable
  var stored: T? {
    access { contents in
      guard let bits = contents.bits else { return nil }
      let instance = bits.assumingMemoryBound(to: T.self)
      if contents.isKept {
        return instance.pointee
      }
      guard let object = contents.shared else { return nil }
      return Self.taking(object, from: instance)
    }
  }

  /// Whether the slot has an instance for new consumers now.
  var holdsInstance: Bool {
    access { $0.isKept || $0.shared != nil }
  }

  /// The instance this slot keeps for every new consumer, taken before `found()` runs; or, if
  /// it has none now, what `missing()` returns.
  ///
  /// For the general path, which is not specialized for `T`: it needs no `Optional<T>`
  /// metadata. It loads the weak reference once, so a shared instance that another thread
  /// releases meanwhile is either taken alive or not at all. `missing` and `found` run outside
  /// the slot's access, so they may resolve.
  func instance(orElse missing: () -> T, found: () -> Void) -> T {
    // One load: the object, retained, keeps the shared instance alive until it is returned.
    let (isKept, object) = access { ($0.isKept, $0.isKept ? nil : $0.shared) }
    guard isKept || object != nil else { return missing() }
    let taken = access { contents in
      // Nothing ran that could store or empty the slot since it was read: it still keeps the
      // instance, or `object` keeps the shared one alive, and the bits are allocated.
      let instance = contents.bits.unsafelyUnwrapped.assumingMemoryBound(to: T.self)
      guard let object else { return instance.pointee }
      return Self.taking(object, from: instance)
    }
    // Taken first: `found` may run code of the user's (a telemetry) that empties the slot.
    found()
    return taken
  }

  /// The shared instance that `object`, just loaded from the weak reference, is, as a `T`.
  ///
  /// Loading `object` retained the instance, and that retain becomes the returned value's: the
  /// bits are taken as they are, without another retain, and `object` is not released. Safe:
  /// `instance` holds the bits of the instance that `object` is (an unowned copy), and `object`
  /// keeps it alive until the returned value owns it. The bits are copied to the scratch room
  /// after them and taken from there, so that the first room keeps them for the next consumer.
  @inlinable
  static func taking(_ object: consuming AnyObject, from instance: UnsafeMutablePointer<T>) -> T {
    _ = Unmanaged.passRetained(consume object)
    let scratch = instance + 1
    UnsafeMutableRawPointer(scratch).copyMemory(from: instance, byteCount: MemoryLayout<T>.size)
    return scratch.move()
  }

  /// How a slot keeps an instance.
  enum Keeping { case weakly, strongly }

  /// Keeps `instance` for later consumers, and notes `epoch` and the session `generations` it
  /// belongs to.
  ///
  /// Weakly if `strategy` is `.shared` and it is an object, else strongly. Returns what it
  /// replaced, for the caller to release once no state is being changed any more.
  func store(
    _ instance: T, strategy: Strategy, epoch: UInt64, generations: [SessionGeneration], own: SessionGeneration?
  ) -> (Keeping, replaced: Any?) {
    var object: AnyObject?
    if case .shared = strategy {
      let boxed = instance as Any
      object = type(of: boxed) is AnyClass ? boxed as AnyObject : nil
    }
    return access { contents in
      contents.epoch = epoch
      contents.generations = generations
      contents.ownGeneration = own
      let bits = contents.bits?.assumingMemoryBound(to: T.self) ?? Self.allocateBits()
      contents.bits = UnsafeMutableRawPointer(bits)
      let replaced: Any? = contents.isKept ? bits.move() : nil
      if let object {
        // An unowned copy of the bits, without a retain; see `taking(_:from:)`.
        withUnsafeBytes(of: instance) {
          UnsafeMutableRawBufferPointer(start: bits, count: $0.count).copyMemory(from: $0)
        }
        (contents.isKept, contents.shared) = (false, object)
        return (.weakly, replaced)
      }
      bits.initialize(to: instance)
      (contents.isKept, contents.shared) = (true, nil)
      return (.strongly, replaced)
    }
  }

  /// Room for two instances: the kept or shared one, and a scratch copy.
  private static func allocateBits() -> UnsafeMutablePointer<T> {
    UnsafeMutablePointer<T>.allocate(capacity: 2)
  }

  /// Forgets the instance, so the next consumer gets a new one; returns the kept one, for the
  /// caller to release once no state is being changed any more.
  func empty() -> Any? {
    access { contents in
      (contents.generations, contents.ownGeneration) = ([], nil)
      contents.shared = nil
      guard contents.isKept, let bits = contents.bits else { return nil }
      contents.isKept = false
      return bits.assumingMemoryBound(to: T.self).move()
    }
  }

  /// The session generations that the instance stored here belongs to: its own, for a
  /// `.session` instance, and those its build resolved; empty while the slot holds nothing.
  var generations: [SessionGeneration] {
    // Only `store` writes them, `SessionGeneration`s.
    access { $0.generations.map { unsafeDowncast($0, to: SessionGeneration.self) } }
  }

  /// The generation of the session whose own instance this slot holds, if it holds one.
  var ownGeneration: SessionGeneration? {
    // Only `store` writes it, a `SessionGeneration`.
    access { $0.ownGeneration.map { unsafeDowncast($0, to: SessionGeneration.self) } }
  }

  deinit {
    // The instance may have been built on the main actor and have a `deinit` that assumes it,
    // while the last reference to this slot may be dropped anywhere (a world inherited by a
    // task that ends on the thread pool): it is moved out, so that the handoff holds it alone.
    if let kept = empty() {
      MainActorRelease.release(consume kept)
    }
    // What is left in the bits is an unowned copy or nothing, so there is nothing to
    // deinitialize.
    withUnsafeMutablePointerToHeader { $0.pointee.bits?.deallocate() }
  }
}

/// What an ``InstanceSlot`` holds: nothing whose layout depends on the instance's type.
@usableFromInline
struct InstanceSlotContents {
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
  /// The global override epoch when the instance was stored; see ``RollbackLog``.
  @usableFromInline
  var epoch: UInt64 = 0
  /// Whether ``RollbackLog`` lists this slot.
  @usableFromInline
  var isLogged = false
  /// Whether ``StoredInstances`` or the slot's world lists this slot, for the graph.
  @usableFromInline
  var isRegistered = false
  /// The ``SessionGeneration``s the instance belongs to; see ``InstanceSlot/generations``.
  @usableFromInline
  var generations: [AnyObject] = []
  /// The ``SessionGeneration`` whose own instance this is, if it is one of a session's.
  @usableFromInline
  var ownGeneration: AnyObject?

  @inlinable
  init() {}
}
