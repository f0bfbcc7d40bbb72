// The hand-written baselines and peer styles that sendable injections (issue 27) are measured
// against: resolution from any isolation, not the main actor's.

import Dependencies

#if canImport(Darwin)
import Darwin
import os
#elseif canImport(Glibc)
import Glibc
#endif

// MARK: An actor's stored `lazy var`: the baseline of a steady read in an actor

///
/// It runs on the main actor's executor, so that the main thread reads it synchronously, with no
/// thread of the pool: valgrind stops on the threads that the concurrency runtime creates. Where
/// an actor runs changes nothing of what reading its stored property costs.
actor LazyActor {
  lazy var service: any Service = ServiceImplementation()

  nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
}

/// The measured reads: `Benchmarks/profile` counts the instructions inside this function only.
@_silgen_name("inject_profile_actor_reads") @inline(never)
func actorReads(_ actor: isolated LazyActor) {
  for _ in 0..<iterations {
    escapedService = actor.service
  }
}

// MARK: A lock-protected lazy global: the baseline of a first resolution from any isolation

/// The platform's plain lock, as a hand-written thread-safe global takes it.
struct HandWrittenLock: @unchecked Sendable {
  // NB: `@unchecked`: the lock is allocated once and never freed; only the platform's lock
  // functions touch it.
  #if canImport(os)
  private let lock = UnsafeMutablePointer<os_unfair_lock>.allocate(capacity: 1)
  #else
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  #endif

  init() {
    #if canImport(os)
    lock.initialize(to: os_unfair_lock())
    #else
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
    #endif
  }

  @inline(__always)
  func withLock<R>(_ body: () -> R) -> R {
    #if canImport(os)
    os_unfair_lock_lock(lock)
    defer { os_unfair_lock_unlock(lock) }
    #else
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    #endif
    return body()
  }
}

/// A lazily built global behind a lock, as a hand-written thread-safe singleton.
final class LockedLazyGlobal: @unchecked Sendable {
  // NB: `@unchecked`: `instance` is read and written only while `lock` is held.
  private let lock = HandWrittenLock()
  private var instance: (any Service)?

  var service: any Service {
    lock.withLock {
      if let instance {
        return instance
      }
      let built = ServiceImplementation()
      instance = built
      return built
    }
  }
}

let lockedLazyGlobal = LockedLazyGlobal()

/// A nonisolated consumer whose `lazy var` reads the lock-protected global.
final class LockedLazyConsumer {
  lazy var service: any Service = lockedLazyGlobal.service
}

// MARK: A lock-protected weak global: the baseline of a `.shared` first resolution from any isolation

/// A lazily built object kept weakly behind a lock, as a hand-written thread-safe `.shared`: what
/// `lazy-weak` is on the main actor, with the lock that any isolation needs.
final class LockedWeakGlobal: @unchecked Sendable {
  // NB: `@unchecked`: `instance` is read and written only while `lock` is held.
  private let lock = HandWrittenLock()
  private weak var instance: (any Service)?

  var service: any Service {
    lock.withLock {
      if let instance {
        return instance
      }
      let built = ServiceImplementation()
      instance = built
      return built
    }
  }
}

let lockedWeakGlobal = LockedWeakGlobal()

/// A nonisolated consumer whose `lazy var` reads the lock-protected weak global.
final class LockedWeakConsumer {
  lazy var service: any Service = lockedWeakGlobal.service
}

/// The measured code of the `locked-lazy-weak` baseline, apart from the other functions so that
/// adding it changes nothing of how the compiler optimizes them.
@_silgen_name("inject_profile_run_locked_weak") @inline(never) @MainActor
func runLockedWeak() {
  repeatCreatingAndReading(LockedWeakConsumer.init, { $0.service })
}

// MARK: Factory-style: a container resolving under one recursive lock, cached by key

/// What Factory's resolution does for a cached scope, sketched.
///
/// A recursive lock held for the whole resolution (the factory included), a cache keyed by the
/// factory's name, and a dynamic cast of the cached value. Its shape, not Factory itself, which
/// the package mirror does not serve.
final class FactoryStyleContainer: @unchecked Sendable {
  // NB: `@unchecked`: `cache` is read and written only while `lock` is held.
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var cache: [String: Any] = [:]

  static let shared = FactoryStyleContainer()

  init() {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, &attributes)
  }

  func resolve<T>(_ key: String, _ factory: () -> T) -> T {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    if let cached = cache[key] as? T {
      return cached
    }
    let instance = factory()
    cache[key] = instance
    return instance
  }

  var service: any Service { resolve("service") { ServiceImplementation() } }
}

/// A nonisolated consumer that resolves from the Factory-style container, as `@Injected` does.
final class FactoryStyleConsumer {
  lazy var service: any Service = FactoryStyleContainer.shared.service
}

// MARK: swift-dependencies: `@Dependency` in a nonisolated class

private enum ServiceKey: DependencyKey {
  static let liveValue: any Service = ServiceImplementation()
}

extension DependencyValues {
  fileprivate var service: any Service {
    get { self[ServiceKey.self] }
    set { self[ServiceKey.self] = newValue }
  }
}

/// A nonisolated consumer of swift-dependencies' live value.
final class DependenciesConsumer {
  @Dependency(\.service) var service
}
