// Factory-style (emulated): what Factory's `ParameterFactory` does for a dependency registered
// `.shared.scopeOnParameters`, hand-written, since the package mirror does not serve Factory
// (https://github.com/hmlongco/Factory). It follows Factory 2's source, path by path:
//
// - `Container.shared.keyedService` is a computed property: every access makes a new
//   `ParameterFactory` (its key is the dependency's type and the property's `#function`) and
//   applies its modifiers again. `.shared` takes the manager's lock and looks the options up;
//   `.scopeOnParameters` takes it again, looks them up and writes them back.
// - Calling it with the parameter resolves: under the manager's lock it looks the options up
//   again (scope, contexts, registration), then, out of it, makes the cache key with the
//   parameter as an `AnyHashable` (found by a cast to `any Hashable`), reads the cache under its
//   read lock, and takes the instance out of the cache's `WeakBox` with dynamic casts.
//
// Left out, so that this is a lower bound of Factory's cost: Factory's newer versions also read
// a revision of the cache under its read lock before the value (two more dictionary look-ups);
// the debug-only trace and cycle checks; time-to-live; the graph scope; and `once`. A miss
// takes a lock per key and stores a new weak box, as Factory does, but only hits are measured.
//
// A separate module, as Factory is: its generic code runs unspecialized for the client's types.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Factory's `FactoryKey`: the dependency's type, the registering property's name, and the
/// parameter when the scope is per parameter.
struct FactoryKey: Hashable {
  let type: ObjectIdentifier
  let key: StaticString
  let parameter: AnyHashable?

  init(type: Any.Type, key: StaticString) {
    self.type = ObjectIdentifier(type)
    self.key = key
    self.parameter = nil
  }

  private init(type: ObjectIdentifier, key: StaticString, parameter: AnyHashable?) {
    self.type = type
    self.key = key
    self.parameter = parameter
  }

  // Factory hashes a `StaticString` by its bytes (a retroactive `Hashable` conformance).
  func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(bytes: UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    hasher.combine(parameter)
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    strcmp(lhs.key.utf8Start, rhs.key.utf8Start) == 0 && lhs.type == rhs.type && lhs.parameter == rhs.parameter
  }

  func parameterized(_ value: Any) -> Self {
    guard let hashable = value as? any Hashable else {
      return self
    }
    return .init(type: type, key: key, parameter: AnyHashable(hashable))
  }
}

/// Factory's `CrossPlatformLock` on Linux: a mutex.
// NB: `@unchecked`: its only state is the mutex, allocated once and used only through its stable
// address by the pthread calls, which are thread-safe.
final class Lock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  init() {
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }
  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
  func withLock<R>(_ body: () -> R) -> R {
    lock()
    defer { unlock() }
    return body()
  }
}

/// Factory's `ReadWriteLock`: a `pthread_rwlock_t`.
// NB: `@unchecked`: its only state is the lock, allocated once and used only through its stable
// address by the pthread calls, which are thread-safe.
final class ReadWriteLock: @unchecked Sendable {
  private let rwlock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
  init() {
    rwlock.initialize(to: pthread_rwlock_t())
    pthread_rwlock_init(rwlock, nil)
  }
  func withReadLock<R>(_ body: () -> R) -> R {
    pthread_rwlock_rdlock(rwlock)
    defer { pthread_rwlock_unlock(rwlock) }
    return body()
  }
  func withWriteLock<R>(_ body: () -> R) -> R {
    pthread_rwlock_wrlock(rwlock)
    defer { pthread_rwlock_unlock(rwlock) }
    return body()
  }
}

/// Factory's cache entries: `AnyBox`, and the `WeakBox` of the shared scope.
protocol AnyBox {
  var timestamp: Double { get set }
}

struct WeakBox: AnyBox {
  var timestamp: Double
  weak var boxed: AnyObject?
}

/// Factory's check that an instance is an `Optional` holding nothing, which it never caches.
protocol OptionalProtocol {
  var hasWrappedValue: Bool { get }
}

extension Optional: OptionalProtocol {
  var hasWrappedValue: Bool { self != nil }
}

/// Factory's `Scope.Shared` over its container's cache (`Scope.Cache`).
final class SharedScope: @unchecked Sendable {
  // NB: `@unchecked`: `cache` and `resolutionLocks` are read and written under `lock` only.
  let lock = ReadWriteLock()
  var cache: [FactoryKey: any AnyBox] = .init(minimumCapacity: 1024)
  var resolutionLocks: [FactoryKey: Lock] = [:]

  func resolve<T>(key: FactoryKey, factory: () -> T) -> T {
    if let box = lock.withReadLock({ cache[key] }), let cached: T = unboxed(box) {
      return cached
    }
    let keyLock = lock.withWriteLock {
      if let existing = resolutionLocks[key] {
        return existing
      }
      let new = Lock()
      resolutionLocks[key] = new
      return new
    }
    return keyLock.withLock {
      if let box = lock.withReadLock({ cache[key] }), let cached: T = unboxed(box) {
        return cached
      }
      let instance = factory()
      if type(of: instance as Any) is AnyObject.Type {
        let box = WeakBox(timestamp: 0, boxed: instance as AnyObject)
        lock.withWriteLock { cache[key] = box }
      }
      return instance
    }
  }

  private func unboxed<T>(_ box: any AnyBox) -> T? {
    if let box = box as? WeakBox, let instance = box.boxed as? T {
      if let optional = instance as? OptionalProtocol {
        if optional.hasWrappedValue {
          return instance
        }
      } else {
        return instance
      }
    }
    return nil
  }
}

/// Factory's `FactoryOptions`, with what a `.shared.scopeOnParameters` factory sets.
struct FactoryOptions {
  var registration: Any?
  var scope: SharedScope?
  var scopeOnParameters = false
  var contexts: [String: Any]?
  var decorator: Any?
  var once = false
}

/// Factory's `ContainerManager`: the options of each factory and the cache, behind its lock.
public final class ContainerManager: @unchecked Sendable {
  // NB: `@unchecked`: `options` is read and written under `lock` only.
  let lock = Lock()
  var options: [FactoryKey: FactoryOptions] = [:]
  let cache = SharedScope()
  var autoRegistrationCheckNeeded = false
  var hasGraphScope = false
  var defaultDecorator: ((Any) -> Void)?
}

/// Factory's `ParameterFactory`, made anew on every access to the container's property.
public struct ParameterFactory<P, T> {
  let key: FactoryKey
  let container: Container
  let factory: (P) -> T

  init(_ container: Container, key: StaticString, _ factory: @escaping (P) -> T) {
    self.key = FactoryKey(type: T.self, key: key)
    self.container = container
    self.factory = factory
  }

  /// `.shared`: `registration.scope(.shared)`.
  public var shared: Self {
    let manager = container.manager
    manager.lock.withLock {
      if var options = manager.options[key] {
        if options.once == false && options.scope !== manager.cache {
          options.scope = manager.cache
          manager.options[key] = options
        }
      } else {
        manager.options[key] = FactoryOptions(scope: manager.cache)
      }
    }
    return self
  }

  /// `.scopeOnParameters`: `registration.options { $0.scopeOnParameters = true }`.
  public var scopeOnParameters: Self {
    let manager = container.manager
    manager.lock.withLock {
      var options = manager.options[key] ?? FactoryOptions()
      if options.once == false {
        options.scopeOnParameters = true
        manager.options[key] = options
      }
    }
    return self
  }

  /// Resolves, as `FactoryRegistration.resolve(with:)` does in a release build.
  public func callAsFunction(_ parameters: P) -> T {
    let manager = container.manager
    manager.lock.lock()
    if manager.autoRegistrationCheckNeeded {
      manager.autoRegistrationCheckNeeded = false
    }
    let options = manager.options[key]
    let scope = options?.scope
    let hasGraphScope = manager.hasGraphScope
    let decorator = manager.defaultDecorator
    manager.lock.unlock()

    let current: (P) -> T
    if let found = options?.contexts?["test"] as? (P) -> T {
      current = found
    } else if let found = options?.registration as? (P) -> T {
      current = found
    } else {
      current = factory
    }
    precondition(!hasGraphScope)

    let instance: T
    if let scope {
      let scopedKey = options?.scopeOnParameters == true ? key.parameterized(parameters) : key
      instance = scope.resolve(key: scopedKey) { current(parameters) }
    } else {
      instance = current(parameters)
    }
    if let decorator = options?.decorator as? (T, Bool) -> Void {
      decorator(instance, false)
    } else {
      decorator?(instance)
    }
    return instance
  }
}

/// Factory's `Container`: a `shared` instance, extended with a computed property per dependency.
public final class Container: Sendable {
  /// The container that the benchmarks' factories live in, as Factory's `Container.shared`.
  public static let shared = Container()
  let manager = ContainerManager()

  /// Factory's `self { ... }` sugar: a `ParameterFactory` keyed by the calling property's name.
  public func callAsFunction<P, T>(
    key: StaticString = #function, _ factory: @escaping (P) -> T
  )
    -> ParameterFactory<P, T>
  {
    ParameterFactory(self, key: key, factory)
  }
}
