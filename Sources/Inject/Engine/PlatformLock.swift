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

/// The platform's lightest lock, kept in memory that its owner allocates at a stable address:
/// `os_unfair_lock` on Apple platforms, a `pthread_mutex_t` on Linux and Android, an `SRWLOCK`
/// on Windows.
///
/// The standard library's `Mutex` does the same, but needs macOS 15 and iOS 18, above the
/// package's deployment targets. ``Locked`` keeps one beside its state; a sendable injection's
/// slot keeps one in its own header, so that reading it costs no second allocation.
@usableFromInline
struct PlatformLock {
  #if canImport(os)
  private typealias Primitive = os_unfair_lock
  #elseif os(Windows)
  private typealias Primitive = SRWLOCK
  #else
  private typealias Primitive = pthread_mutex_t
  #endif

  /// Room for the lock, in a header or a state that keeps it at a stable address.
  private var primitive: Primitive

  /// An unlocked lock; call ``prepare(_:)`` once it is at its final address.
  init() {
    #if canImport(os)
    primitive = os_unfair_lock()
    #elseif os(Windows)
    primitive = SRWLOCK()
    #else
    primitive = pthread_mutex_t()
    #endif
  }

  /// Makes the lock at `lock` usable, once it is where it stays.
  static func prepare(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if os(Windows)
    InitializeSRWLock(primitive(lock))
    #elseif !canImport(os)
    let status = pthread_mutex_init(primitive(lock), nil)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
    #endif
  }

  /// Takes the lock at `lock`.
  @usableFromInline
  static func acquire(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if canImport(os)
    os_unfair_lock_lock(primitive(lock))
    #elseif os(Windows)
    AcquireSRWLockExclusive(primitive(lock))
    #else
    pthread_mutex_lock(primitive(lock))
    #endif
  }

  /// Lets the lock at `lock` go.
  @usableFromInline
  static func release(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if canImport(os)
    os_unfair_lock_unlock(primitive(lock))
    #elseif os(Windows)
    ReleaseSRWLockExclusive(primitive(lock))
    #else
    pthread_mutex_unlock(primitive(lock))
    #endif
  }

  /// Ends the lock at `lock`, which nothing holds or will take again.
  static func destroy(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if !canImport(os) && !os(Windows)
    pthread_mutex_destroy(primitive(lock))
    #endif
  }

  /// The primitive that `lock` keeps: its only stored property, at its address.
  private static func primitive(_ lock: UnsafeMutablePointer<PlatformLock>) -> UnsafeMutablePointer<Primitive> {
    UnsafeMutableRawPointer(lock).assumingMemoryBound(to: Primitive.self)
  }
}
