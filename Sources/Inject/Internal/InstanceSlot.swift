/// Where one world keeps the instance that one layer built for every new consumer: strongly for
/// a singleton (or a shared value that cannot be held weakly), weakly for a shared object.
///
/// Configuration and storage are apart: a ``Layer`` says how to build, a slot keeps what was
/// built. The global world keeps its slot beside each layer, so that the resolution fast path
/// reaches it in one load; each scope world keeps its own slots (``World``).
///
/// A `ManagedBuffer`, so that the fast path, inlined into the consumer's module, reads it with
/// no dynamic exclusivity check. Every access through ``access(_:)`` is instantaneous and none
/// nests inside another on the same slot. Not `Sendable`: the compiler confines each slot to
/// the main actor, its owner's isolation.
@usableFromInline
final class InstanceSlot<T>: ManagedBuffer<InstanceSlotContents<T>, Void> {
  @usableFromInline
  typealias Contents = InstanceSlotContents<T>

  /// An empty slot.
  @inlinable
  static func make() -> InstanceSlot<T> {
    // `create` allocates an instance of the class it is called on: `InstanceSlot<T>`.
    unsafeDowncast(create(minimumCapacity: 0) { _ in Contents() }, to: InstanceSlot<T>.self)
  }

  /// Runs `body` with the contents, which it may change.
  @inlinable
  func access<R>(_ body: (inout Contents) -> R) -> R {
    withUnsafeMutablePointerToHeader { body(&$0.pointee) }
  }

  /// The instance this slot keeps for every new consumer, if it has one now.
  @inlinable
  var stored: T? {
    access { contents in
      if let kept = contents.kept {
        return kept
      }
      guard let sharedBits = contents.sharedBits, let object = contents.shared else { return nil }
      // Loading `object` from the weak reference retained the instance, and that retain becomes
      // the returned value's: the bits are taken as they are, without another retain, and
      // `object` is not released. Safe: `sharedBits` holds the bits of the instance that
      // `object` is, and `object` keeps it alive until the returned value owns it.
      _ = Unmanaged.passRetained(consume object)
      // The bits are copied to the scratch slot after them and taken from there, so that the
      // first slot keeps them for the next consumer.
      let scratch = sharedBits + 1
      UnsafeMutableRawPointer(scratch).copyMemory(from: sharedBits, byteCount: MemoryLayout<T>.size)
      return scratch.move()
    }
  }

  /// How a slot keeps an instance.
  enum Keeping { case weakly, strongly }

  /// Keeps `instance` for later consumers, and notes `epoch`.
  ///
  /// Weakly if `strategy` is `.shared` and it is an object, else strongly. Returns what it replaced, for the caller to
  /// release once no state is being changed any more.
  func store(_ instance: T, strategy: Strategy, epoch: UInt64) -> (Keeping, replaced: T?) {
    let boxed = instance as Any
    return access { contents in
      contents.epoch = epoch
      if strategy == .shared && type(of: boxed) is AnyClass {
        let bits = contents.sharedBits ?? .allocate(capacity: 2)
        // Copies the bits without a retain; see `sharedBits`.
        withUnsafeBytes(of: instance) {
          UnsafeMutableRawBufferPointer(start: bits, count: $0.count).copyMemory(from: $0)
        }
        contents.sharedBits = bits
        contents.shared = boxed as AnyObject
        return (.weakly, nil)
      }
      let replaced = contents.kept
      contents.kept = instance
      return (.strongly, replaced)
    }
  }

  /// Forgets the instance, so the next consumer gets a new one; returns the kept one, for the
  /// caller to release once no state is being changed any more.
  func empty() -> T? {
    access { contents in
      contents.shared = nil
      return contents.kept.take()
    }
  }

  /// Whether the slot has an instance for new consumers now.
  var holdsInstance: Bool { stored != nil }

  deinit {
    // The instance may have been built on the main actor and have a `deinit` that assumes it,
    // while the last reference to this slot may be dropped anywhere (a world inherited by a
    // task that ends on the thread pool): it is moved out, so that the handoff holds it alone.
    if let kept = empty() {
      MainActorRelease.release(kept)
    }
    // The bits are an unowned copy, so there is nothing to deinitialize; see `Contents`.
    withUnsafeMutablePointerToHeader { $0.pointee.sharedBits?.deallocate() }
  }
}

/// What an ``InstanceSlot`` holds.
@usableFromInline
struct InstanceSlotContents<T> {
  /// The instance kept strongly.
  @usableFromInline
  var kept: T?
  /// The shared instance, held weakly so that it is released after its last holder.
  @usableFromInline
  weak var shared: AnyObject?
  /// The same instance as a `T`, its bits copied without a retain.
  ///
  /// An unowned copy, valid exactly while `shared` is not `nil`. Reading it back costs a copy
  /// of bits instead of the dynamic cast from `AnyObject` to `T` (a protocol-conformance
  /// lookup when `T` is an existential). Allocated on the first weak store, with a scratch
  /// slot after it, and deallocated with the slot.
  @usableFromInline
  var sharedBits: UnsafeMutablePointer<T>?
  /// The global override epoch when the instance was stored; see ``RollbackLog``.
  @usableFromInline
  var epoch: UInt64 = 0
  /// Whether ``RollbackLog`` lists this slot.
  @usableFromInline
  var isLogged = false

  @inlinable
  init() {}
}
