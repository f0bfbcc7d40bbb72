#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif os(Windows)
import WinSDK
#endif

/// The thread that runs the caller, and what the engine keeps for it alone: the builds in
/// progress on it (``BuildChain``).
///
/// A sendable injection's factory is synchronous, so a build runs on one thread from start to
/// end, even in a task: no suspension point can move it. That is why a thread, not a task, is
/// what owns a build in progress.
enum CurrentThread {
  /// An identifier of the calling thread, unique among the threads alive.
  static var id: UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #elseif os(Windows)
    UInt(GetCurrentThreadId())
    #else
    UInt(pthread_self())
    #endif
  }

  /// The calling thread's innermost ``BuildChain`` frame, or `nil` while it builds nothing.
  ///
  /// Unretained: a frame lives on the stack of the build that pushed it, which pops it before
  /// it returns, so a thread's value names a live frame or nothing.
  static var innermostBuild: UnsafeMutableRawPointer? {
    get {
      #if os(Windows)
      TlsGetValue(key)
      #else
      pthread_getspecific(key)
      #endif
    }
    set {
      #if os(Windows)
      TlsSetValue(key, newValue)
      #else
      pthread_setspecific(key, newValue)
      #endif
    }
  }

  /// The key of ``innermostBuild``, allocated once per process; nothing to destroy at a thread's
  /// exit, since a thread that exits builds nothing.
  #if os(Windows)
  private static let key: DWORD = TlsAlloc()
  #else
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
  }()
  #endif
}
