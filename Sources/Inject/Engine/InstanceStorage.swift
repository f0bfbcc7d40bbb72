public import _InjectShims

/// The state of one consumer property of either kind (`@Instance`, `@SendableInstance`), shared by
/// copies of the wrapper: the injection it consumes, and its instance once resolved or assigned.
///
/// One heap allocation per consumer property: a `ManagedBuffer` whose header holds the injection
/// and whose single tail element holds the instance. Every access goes through the buffer's
/// pointers, so it is specialized into the consumer and pays no dynamic exclusivity check, and
/// `deinit` destroys the instance without looking up any generic metadata.
///
/// Its type names the injection's: a storage made for an `Injection<T>` reads back an
/// `Injection<T>`, one made for a `SendableInjection<T>` a `SendableInjection<T>`. Both are
/// generic parameters, not a door's associated types, so that `deinit` finds the instance's type
/// in the object itself, with no look-up.
///
/// A consumer made while a world is current remembers the world's configuration until it
/// resolves, and nothing of its storage (``WorldConfiguration``): one word more per consumer.
///
/// The class is not `Sendable`, so the compiler confines each storage to one isolation domain:
/// ``Instance`` reads and writes it only from the main actor, and ``SendableInstance`` from the
/// isolation of the object that declares it. A ``SendableInstance`` also publishes what it holds,
/// which the graph's capture reads from the main actor (`InstanceStorage+Publication.swift`).
@usableFromInline
final class InstanceStorage<Injection: AnyObject, Value>: ManagedBuffer<InstanceStorageHeader, Value> {
  /// A storage for a consumer of `injection`, declared at `location`, with no instance yet; it
  /// remembers the configuration of the current task's world, if it is in one.
  ///
  /// While no world is alive (the common case), it learns that the task is in none with one
  /// relaxed load, and reads no task-local.
  @inlinable
  static func make(_ injection: Injection, at location: CodeLocation) -> InstanceStorage<Injection, Value> {
    let world = WorldCount.isNoneAlive ? nil : WorldConfiguration.retainedForNewConsumer()
    let buffer = create(minimumCapacity: 1) { _ in
      InstanceStorageHeader(injection: injection, location: location, world: world)
    }
    // `create` allocates an instance of the class it is called on: `InstanceStorage<Injection, Value>`.
    return unsafeDowncast(buffer, to: InstanceStorage<Injection, Value>.self)
  }

  /// The injection this storage resolves from.
  @inlinable
  var injection: Injection {
    // `make` stores an `Injection`, and nothing changes it.
    withUnsafeMutablePointerToHeader { unsafeDowncast($0.pointee.injection, to: Injection.self) }
  }

  /// Runs `body` with the injection, without retaining it.
  ///
  /// Safe: the header's injection is a `let` that this storage holds strongly, and the caller
  /// keeps this storage alive.
  @inlinable
  func withInjection<Result>(_ body: (Injection) -> Result) -> Result {
    Unmanaged.passUnretained(injection).withGuaranteedReference(body)
  }

  /// Where the consumer property was declared.
  @inlinable
  var location: CodeLocation { withUnsafeMutablePointerToHeader { $0.pointee.location } }

  /// Whether the consumer was made in a world and has not resolved since.
  @inlinable
  var remembersWorld: Bool { withUnsafeMutablePointerToHeader { $0.pointee.world != nil } }

  /// The configuration of the world the consumer was made in, until it first resolves.
  ///
  /// It is where the consumer resolves (``WorldConfiguration/isWithin(_:)``); this storage
  /// retains it.
  @inlinable
  var world: Unmanaged<WorldConfiguration>? { withUnsafeMutablePointerToHeader { $0.pointee.world } }

  /// The resolved or locally assigned instance, if any.
  @inlinable
  var instance: Value? {
    withUnsafeMutablePointers { header, element in header.pointee.hasInstance ? element.pointee : nil }
  }

  /// Whether the instance was assigned rather than resolved.
  @inlinable
  var isLocal: Bool { withUnsafeMutablePointerToHeader { $0.pointee.isLocal } }

  /// Replaces the instance: a resolved one, a locally assigned one, or none.
  ///
  /// The old instance is released only once the storage holds the new one, so that its
  /// `deinit`, should it read the property, finds the new instance.
  @inlinable
  func set(_ newValue: Value?, isLocal: Bool) {
    withExtendedLifetime(exchange(newValue, isLocal: isLocal, publishing: false)) {}
  }

  /// Puts `newValue` (none: `nil`) in place of the instance; returns the old one, for the caller
  /// to release once the storage holds the new.
  ///
  /// With `publishing`, whether the storage holds an instance is stored with release ordering,
  /// for the graph's capture (`InstanceStorage+Publication.swift`).
  @inlinable @inline(__always)
  func exchange(_ newValue: Value?, isLocal: Bool, publishing: Bool) -> Value? {
    withUnsafeMutablePointers { header, element in
      let old = header.pointee.hasInstance ? element.move() : nil
      if let newValue {
        element.initialize(to: newValue)
      }
      header.pointee.isLocal = isLocal
      if publishing {
        _inject_flag_release(header.pointer(to: \.hasInstance).unsafelyUnwrapped, newValue != nil)
      } else {
        header.pointee.hasInstance = newValue != nil
      }
      return old
    }
  }

  /// Forgets the world the consumer was made in, once it resolved there: a consumer that
  /// resolved holds its instance and nothing of the world.
  @inlinable
  func forgetWorld() {
    withUnsafeMutablePointerToHeader { $0.pointee.world.take() }?.release()
  }

  deinit {
    if withUnsafeMutablePointerToHeader({ $0.pointee.hasInstance }) {
      _ = withUnsafeMutablePointerToElements { $0.move() }
    }
    withUnsafeMutablePointerToHeader { $0.pointee.world }?.release()
  }
}

/// The part of an ``InstanceStorage`` that does not depend on its type, so that destroying it
/// needs no generic metadata.
@usableFromInline
struct InstanceStorageHeader {
  /// The storage's injection, type-erased: ``InstanceStorage/injection`` reads it back as the
  /// injection type that its maker took.
  @usableFromInline
  let injection: AnyObject

  /// Where the consumer property was declared.
  @usableFromInline
  let location: CodeLocation

  /// The configuration of the world the consumer was made in, until it first resolves.
  ///
  /// Retained, and released by ``InstanceStorage/forgetWorld()`` or the
  /// storage's `deinit`. Unmanaged, so that the header of a consumer made outside every world
  /// (the common case) is copied and destroyed as if it had no such field.
  @usableFromInline
  var world: Unmanaged<WorldConfiguration>?

  /// Whether the tail element holds an instance.
  @usableFromInline
  var hasInstance = false

  /// Whether the instance was assigned rather than resolved.
  @usableFromInline
  var isLocal = false

  @inlinable
  init(injection: AnyObject, location: CodeLocation, world: Unmanaged<WorldConfiguration>?) {
    self.injection = injection
    self.location = location
    self.world = world
  }
}
