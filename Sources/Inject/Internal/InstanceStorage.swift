/// The state of one `@Instance` property, shared by copies of the wrapper: the injection it
/// consumes, and its instance once resolved or assigned.
///
/// One heap allocation per consumer property: a `ManagedBuffer` whose header holds the injection
/// and whose single tail element holds the instance. Every access goes through the buffer's
/// pointers, so it is specialized into the consumer and pays no dynamic exclusivity check, and
/// `deinit` destroys the instance without looking up any generic metadata.
///
/// The class is not `Sendable`, so the compiler confines each storage to one isolation domain:
/// ``Instance`` reads and writes it only from the main actor, and ``SendableInstance`` from the
/// isolation of the object that declares it.
@usableFromInline
final class InstanceStorage<T>: ManagedBuffer<InstanceStorageHeader, T> {
  /// A storage for a consumer of `injection`, with no instance yet.
  @inlinable
  static func make(_ injection: Injection<T>, at location: CodeLocation) -> InstanceStorage<T> {
    let buffer = create(minimumCapacity: 1) { _ in InstanceStorageHeader(injection: injection, location: location) }
    // `create` allocates an instance of the class it is called on: `InstanceStorage<T>`.
    return unsafeDowncast(buffer, to: InstanceStorage<T>.self)
  }

  /// The injection this storage resolves from.
  @inlinable
  var injection: Injection<T> {
    // `make` stores an `Injection<T>`, and nothing changes it.
    withUnsafeMutablePointerToHeader { unsafeDowncast($0.pointee.injection, to: Injection<T>.self) }
  }

  /// Where the `@Instance` property was declared.
  @inlinable
  var location: CodeLocation { withUnsafeMutablePointerToHeader { $0.pointee.location } }

  /// The resolved or locally assigned instance, if any.
  @inlinable
  var instance: T? {
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
  func set(_ newValue: T?, isLocal: Bool) {
    let old: T? = withUnsafeMutablePointers { header, element in
      let old = header.pointee.hasInstance ? element.move() : nil
      if let newValue {
        element.initialize(to: newValue)
      }
      header.pointee.hasInstance = newValue != nil
      header.pointee.isLocal = isLocal
      return old
    }
    withExtendedLifetime(old) {}
  }

  /// The instance if this storage holds one, or if the injection stores one for every new
  /// consumer (which this storage then keeps): the part of a read that runs no code of the
  /// user's. (It copies instances, which runs none, and stores one only where none was, so it
  /// runs no `deinit` either.)
  @inlinable @MainActor
  var storedValue: T? {
    if let instance {
      return instance
    }
    guard let stored = withInjection({ $0.storedInstance }) else { return nil }
    set(stored, isLocal: false)
    return stored
  }

  /// Resolves an instance when ``storedValue`` is `nil`, and keeps it.
  @inlinable @MainActor
  func resolveUnstored() -> T {
    let resolved = withInjection { $0.resolveUnstored(from: location) }
    set(resolved, isLocal: false)
    return resolved
  }

  /// Runs `body` with the injection, without retaining it.
  ///
  /// Safe: the header's injection is a `let` that this storage holds strongly, and the caller
  /// keeps this storage alive.
  @inlinable
  func withInjection<Result>(_ body: (Injection<T>) -> Result) -> Result {
    Unmanaged.passUnretained(injection).withGuaranteedReference(body)
  }

  deinit {
    if withUnsafeMutablePointerToHeader({ $0.pointee.hasInstance }) {
      _ = withUnsafeMutablePointerToElements { $0.move() }
    }
  }
}

/// The part of an ``InstanceStorage`` that does not depend on its type, so that destroying it
/// needs no generic metadata.
@usableFromInline
struct InstanceStorageHeader {
  /// The storage's `Injection<T>`, type-erased.
  @usableFromInline
  let injection: AnyObject

  /// Where the `@Instance` property was declared.
  @usableFromInline
  let location: CodeLocation

  /// Whether the tail element holds an instance.
  @usableFromInline
  var hasInstance = false

  /// Whether the instance was assigned rather than resolved.
  @usableFromInline
  var isLocal = false

  @inlinable
  init(injection: AnyObject, location: CodeLocation) {
    self.injection = injection
    self.location = location
  }
}
