/// A property that gets its value from a published ``SendableInjection``, readable in any
/// isolation.
///
/// Declare it with the injection; the type is inferred from it:
///
/// ```swift
/// actor ImageLoader {
///   @SendableInstance(imageClientInjection) var client
/// }
/// ```
///
/// It works in actors, nonisolated classes and structs, and main-actor types: its initializer
/// and its `wrappedValue` are nonisolated, and it is not `Sendable`, so the compiler keeps each
/// property in the isolation of the object that declares it. That is why reading it costs a
/// load, with no lock. (The Swift 5 language mode does not check that: there, an object that is
/// not `Sendable` must not be shared between threads that read the property, or they may race on
/// its first read. Share an actor, or resolve in each thread.) A `Sendable` final class cannot
/// hold it (its stored properties must be `let`s of `Sendable` types): it reads
/// ``SendableInjection/resolve(fileID:line:)`` where it needs the instance, or keeps one in a
/// `let` set in its initializer.
///
/// What the property holds is also published, so that ``InjectionGraph`` and the session
/// survivor report see it from the main actor without racing the actor: its first instance with
/// one atomic store, a replaced or dropped one under a lock; a steady read stays one load. See
/// <doc:Diagnostics#Actors>.
///
/// Resolution is lazy: nothing is built before the first read, and the property keeps its
/// instance for its own lifetime. A consumer made in a scope or a test remembers that world's
/// configuration and resolves with it wherever and whenever it first reads (a detached task, a
/// callback, after the scope ended); see <doc:Testing#Which-world-a-consumer-resolves-in>. Assigning the property replaces the instance for this
/// consumer only; `$client.reset()` drops it, so the next read resolves anew.
@propertyWrapper
public struct SendableInstance<T: Sendable> {
  @usableFromInline
  let storage: InstanceStorage<SendableInjection<T>, T>

  /// Consumes `injection`.
  ///
  /// You do not call this initializer directly. Instead, declare a property with the
  /// `@SendableInstance` attribute:
  ///
  /// ```swift
  /// @SendableInstance(imageClientInjection) var client
  /// ```
  ///
  /// - Parameters:
  ///   - injection: The published dependency to resolve on the first read.
  ///   - fileID: Where the property is declared; recorded for diagnostics.
  ///   - line: Where the property is declared; recorded for diagnostics.
  @inlinable
  public init(_ injection: SendableInjection<T>, fileID: StaticString = #fileID, line: UInt = #line) {
    storage = InstanceStorage.make(injection, at: CodeLocation(fileID: fileID, line: line))
  }

  /// This consumer's instance: resolved from the injection on the first read, then kept.
  ///
  /// Setting it replaces the instance for this consumer only.
  @inlinable
  public var wrappedValue: T {
    get {
      if let instance = storage.instance {
        return instance
      }
      // A consumer made in a world resolves there, wherever it reads.
      if storage.remembersWorld {
        return Self.resolveInRememberedWorld(storage)
      }
      let resolved = storage.withInjection { $0.resolve(from: storage.location) }
      storage.publish(resolved, isLocal: false)
      return resolved
    }
    nonmutating set {
      storage.publish(newValue, isLocal: true)
      storage.injection.recordLocalOverride(at: storage.location)
    }
  }

  /// The wrapper itself, for ``reset()``: `$client.reset()`.
  @inlinable
  public var projectedValue: Self { self }

  /// Resolves and keeps the instance of a consumer made in a world, in that world's configuration.
  ///
  /// Out of line: the common read stays small enough to be inlined into the consumer, and it is
  /// specialized there.
  @inlinable @inline(never)
  static func resolveInRememberedWorld(_ storage: InstanceStorage<SendableInjection<T>, T>) -> T {
    let resolved = storage.withInjection {
      $0.resolve(remembering: storage.world.unsafelyUnwrapped, from: storage.location)
    }
    storage.publish(resolved, isLocal: false)
    storage.forgetWorld()
    return resolved
  }

  /// Drops this consumer's instance, resolved or assigned, so the next read resolves again from
  /// the injection's current configuration.
  public func reset() {
    storage.publish(nil, isLocal: false)
  }
}
