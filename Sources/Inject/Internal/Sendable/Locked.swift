#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif os(Windows)
import WinSDK
#endif

/// State shared between threads, behind the platform's lightest lock: `os_unfair_lock` on Apple
/// platforms, a `pthread_mutex_t` on Linux and Android, an `SRWLOCK` on Windows.
///
/// The standard library's `Mutex` does the same, but needs macOS 15 and iOS 18, above the
/// package's deployment targets. The lock and the state are allocated apart from the object, so
/// that the lock's address is stable for its whole life and reading the state costs no dynamic
/// exclusivity check.
///
/// ``withLock(_:)`` holds the lock only while `body` runs. The engine never calls code of the
/// user's inside it (a factory, a decorator, a `deinit`, a telemetry): what such code needs is
/// taken out first, and what the state lets go of is released after the lock is.
// NB: `@unchecked` because the compiler cannot see that a lock guards the state. It is safe: the
// state is reached only through `withLock(_:)`, which holds the lock for the whole access, so no
// two threads touch it at once; the state is `Sendable`, so a value stored by one thread may be
// used by another; and the lock is only ever used through its stable address.
package final class Locked<State: Sendable>: @unchecked Sendable {
  #if canImport(os)
  private typealias PlatformLock = os_unfair_lock
  #elseif os(Windows)
  private typealias PlatformLock = SRWLOCK
  #else
  private typealias PlatformLock = pthread_mutex_t
  #endif

  private let lock = UnsafeMutablePointer<PlatformLock>.allocate(capacity: 1)
  private let state = UnsafeMutablePointer<State>.allocate(capacity: 1)

  /// A lock around `state`.
  package init(_ state: State) {
    self.state.initialize(to: state)
    #if canImport(os)
    lock.initialize(to: os_unfair_lock())
    #elseif os(Windows)
    lock.initialize(to: SRWLOCK())
    InitializeSRWLock(lock)
    #else
    lock.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(lock, nil)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
    #endif
  }

  /// Runs `body` with the state, which it may change, while holding the lock.
  ///
  /// `body` must not lock this lock again, and must run no code of the user's.
  package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    #if canImport(os)
    os_unfair_lock_lock(lock)
    defer { os_unfair_lock_unlock(lock) }
    #elseif os(Windows)
    AcquireSRWLockExclusive(lock)
    defer { ReleaseSRWLockExclusive(lock) }
    #else
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    #endif
    return try body(&state.pointee)
  }

  deinit {
    #if !canImport(os) && !os(Windows)
    pthread_mutex_destroy(lock)
    #endif
    lock.deinitialize(count: 1)
    lock.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }
}
