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
@usableFromInline
package final class Locked<State: Sendable>: @unchecked Sendable {
  #if canImport(os)
  private typealias PlatformLock = os_unfair_lock
  #elseif os(Windows)
  private typealias PlatformLock = SRWLOCK
  #else
  private typealias PlatformLock = pthread_mutex_t
  #endif

  /// The platform lock, untyped so that inlined code can hold it without the platform's module.
  @usableFromInline
  let lock: UnsafeMutableRawPointer
  @usableFromInline
  let state = UnsafeMutablePointer<State>.allocate(capacity: 1)

  /// A lock around `state`.
  package init(_ state: State) {
    self.state.initialize(to: state)
    let lock = UnsafeMutablePointer<PlatformLock>.allocate(capacity: 1)
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
    self.lock = UnsafeMutableRawPointer(lock)
  }

  /// Runs `body` with the state, which it may change, while holding the lock.
  ///
  /// `body` must not lock this lock again, and must run no code of the user's. Inlined, so
  /// that the caller's code is specialized for the state's type.
  @inlinable
  package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    acquire()
    defer { release() }
    return try body(&state.pointee)
  }

  @usableFromInline
  func acquire() {
    let lock = lock.assumingMemoryBound(to: PlatformLock.self)
    #if canImport(os)
    os_unfair_lock_lock(lock)
    #elseif os(Windows)
    AcquireSRWLockExclusive(lock)
    #else
    pthread_mutex_lock(lock)
    #endif
  }

  @usableFromInline
  func release() {
    let lock = lock.assumingMemoryBound(to: PlatformLock.self)
    #if canImport(os)
    os_unfair_lock_unlock(lock)
    #elseif os(Windows)
    ReleaseSRWLockExclusive(lock)
    #else
    pthread_mutex_unlock(lock)
    #endif
  }

  deinit {
    let lock = lock.assumingMemoryBound(to: PlatformLock.self)
    #if !canImport(os) && !os(Windows)
    pthread_mutex_destroy(lock)
    #endif
    lock.deinitialize(count: 1)
    lock.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }
}
