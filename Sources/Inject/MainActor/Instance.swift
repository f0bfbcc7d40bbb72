/// A property that gets its value from a published ``Injection``.
///
/// Declare it with the injection; the type is inferred from it:
///
/// ```swift
/// @MainActor final class ProfileModel {
///   @Instance(userRepositoryInjection) var repository
/// }
/// ```
///
/// It works in main-actor classes, nonisolated classes and structs (such as SwiftUI views),
/// because its initializer is `nonisolated`. Reading the property is isolated to the main actor.
/// An actor does not hold `@Instance` properties, since every read from the actor would hop to
/// the main actor: it receives what it needs from the main actor, as MIGRATION.md shows.
///
/// Resolution is lazy: nothing is built before the first read, so a consumer created before a
/// global override and read after it gets the override. Once read, the consumer keeps its
/// instance strongly for its own lifetime, even if the configuration changes later.
///
/// A consumer made in a scope or a test (`withOverride`, a testing trait,
/// `withIsolatedInjections`) remembers that world's configuration, and resolves with it wherever
/// and whenever it first reads: in a callback, a `DispatchQueue.main.async` block, a
/// `Task.detached`, or after the scope has ended. It keeps the configuration, never the
/// instances the world stores; see <doc:Testing#Which-world-a-consumer-resolves-in>.
///
/// Assigning the property replaces the instance for this consumer only; `$repository.reset()`
/// drops it again, so the next read resolves anew:
///
/// ```swift
/// model.repository = InMemoryUserRepository()  // only this model
/// model.$repository.reset()                    // the next read resolves from the injection again
/// ```
///
/// > Note: Copies of a struct that declares `@Instance` share one resolved instance, like
/// > copies of a SwiftUI view share their state: assigning the property, or resetting it, through
/// > one copy changes it for every copy.
///
/// The type is isolated to the main actor, as it was in 1.1. In the Swift 5 language mode, a class
/// or struct that declares an `@Instance` property is therefore inferred to be main-actor-isolated,
/// so its methods can read the property. (The Swift 6 mode no longer infers a type's isolation
/// from its property wrappers, SE-0401: there, isolate the methods that read it to the main actor.)
@MainActor
@propertyWrapper
public struct Instance<T> {
  // NB: `nonisolated(unsafe)` only so that the `nonisolated` initializer can store this
  // non-Sendable storage in a main-actor-isolated wrapper, which lets nonisolated classes and
  // structs declare `@Instance`. It is safe: the initializer creates the storage and is its only
  // user until it returns; every other use is from a main-actor-isolated member of this wrapper
  // (`wrappedValue`, `reset()`, `debugDescription`). A copy of the wrapper sent elsewhere can
  // only release its reference, which is as safe as releasing any class reference.
  @usableFromInline
  nonisolated(unsafe) let storage: InstanceStorage<Injection<T>, T>

  /// Consumes `injection`.
  ///
  /// You do not call this initializer directly. Instead, declare a property with the
  /// `@Instance` attribute:
  ///
  /// ```swift
  /// @Instance(apiClientInjection) var apiClient
  /// ```
  ///
  /// - Parameters:
  ///   - injection: The published dependency to resolve on the first read.
  ///   - fileID: Where the property is declared; recorded for diagnostics.
  ///   - line: Where the property is declared; recorded for diagnostics.
  @inlinable
  public nonisolated init(_ injection: Injection<T>, fileID: StaticString = #fileID, line: UInt = #line) {
    storage = InstanceStorage.make(injection, at: CodeLocation(fileID: fileID, line: line))
  }

  /// This consumer's instance: resolved from the injection on the first read, then kept.
  ///
  /// Setting it replaces the instance for this consumer only.
  @inlinable
  public var wrappedValue: T {
    get {
      // Reads through a storage it does not retain while no code of the user's runs (only such
      // code could replace this wrapper in its consumer); retains it for resolving otherwise.
      // Safe: the caller keeps the consumer, and so this wrapper's storage, alive for the read.
      if let stored = Unmanaged.passUnretained(storage).withGuaranteedReference({ Self.storedValue(in: $0) }) {
        return stored
      }
      let resolved = storage.withInjection { $0.resolveUnstored(from: storage.location) }
      storage.set(resolved, isLocal: false)
      return resolved
    }
    nonmutating set {
      storage.set(newValue, isLocal: true)
      // One flag read here keeps the inlined setter from calling out when nothing listens.
      if Telemetry.isActive {
        storage.injection.recordLocalOverride(at: storage.location)
      }
    }
  }

  /// The wrapper itself, for ``reset()``: `$service.reset()`.
  ///
  /// Main-actor-isolated like ``wrappedValue``: the Swift 5 language mode infers a type's isolation
  /// from its property wrappers only when both agree, so a `nonisolated` projection would silently
  /// leave the consumers of `@Instance` nonisolated.
  @inlinable
  public var projectedValue: Self { self }

  /// Drops this consumer's instance, resolved or assigned, so the next read resolves again
  /// from the injection's current configuration.
  public func reset() {
    storage.set(nil, isLocal: false)
  }

  /// Resolves and keeps the instance of a consumer made in a world, in that world's configuration.
  ///
  /// Out of line: the common read stays small enough to be inlined into the consumer, and it is
  /// specialized there.
  ///
  /// It retains `storage`, which the caller may not: the resolution runs code of the user's.
  @inlinable @inline(never)
  static func resolveInRememberedWorld(_ storage: InstanceStorage<Injection<T>, T>) -> T {
    let retained = Unmanaged.passRetained(storage)
    defer { retained.release() }
    let resolved = storage.withInjection {
      $0.resolve(remembering: storage.world.unsafelyUnwrapped, from: storage.location)
    }
    storage.set(resolved, isLocal: false)
    storage.forgetWorld()
    return resolved
  }

  /// The instance if `storage` holds one, or if the injection stores one for every new consumer
  /// (which `storage` then keeps): the part of a read that runs no code of the user's. (It copies
  /// instances, which runs none, and stores one only where none was, so it runs no `deinit`
  /// either.)
  @inlinable
  static func storedValue(in storage: InstanceStorage<Injection<T>, T>) -> T? {
    if let instance = storage.instance {
      return instance
    }
    // A consumer made in a world resolves there, wherever it reads.
    if storage.remembersWorld {
      return resolveInRememberedWorld(storage)
    }
    guard let stored = storage.withInjection({ $0.storedInstance }) else { return nil }
    storage.set(stored, isLocal: false)
    return stored
  }
}
