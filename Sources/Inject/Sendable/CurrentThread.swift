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

/// The thread that runs the caller, and what the engine keeps for it alone: the builds of
/// sendable injections in progress on it (``BuildChain``).
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

  /// The calling thread's builds in progress, made on its first build and released when the
  /// thread exits (on Windows, kept until the process exits: a few bytes per thread that built).
  static var builds: ThreadBuilds {
    unretainedBuilds.takeUnretainedValue()
  }

  /// The calling thread's builds in progress, unretained.
  ///
  /// Valid on the calling thread for as long as it runs, since the thread holds them until it
  /// exits: a build on the fast path enters and leaves its injection with no retain and release.
  static var unretainedBuilds: Unmanaged<ThreadBuilds> {
    if let existing = stored {
      // Only `makeBuilds` stores it: a `ThreadBuilds`, retained once, which the thread holds.
      return Unmanaged<ThreadBuilds>.fromOpaque(existing)
    }
    return Unmanaged.passUnretained(makeBuilds())
  }

  /// Makes the calling thread's builds, on its first build: apart from ``unretainedBuilds``, so
  /// that the getter, small, is inlined where a build is entered.
  @inline(never)
  private static func makeBuilds() -> ThreadBuilds {
    let builds = ThreadBuilds()
    stored = Unmanaged.passRetained(builds).toOpaque()
    return builds
  }

  /// The calling thread's builds, retained, if it made them.
  private static var stored: UnsafeMutableRawPointer? {
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

  /// The key of ``stored``, allocated once per process; a thread that exits releases its
  /// builds, which by then hold no frame.
  #if os(Windows)
  private static let key: DWORD = TlsAlloc()
  #else
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { builds in
      // A thread's builds, retained once by `builds`.
      #if canImport(Darwin)
      Unmanaged<ThreadBuilds>.fromOpaque(builds).release()
      #else
      if let builds {
        Unmanaged<ThreadBuilds>.fromOpaque(builds).release()
      }
      #endif
    }
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
  }()
  #endif
}

/// The builds of sendable injections in progress on one thread: the injections entered, for the
/// cycle check and the chain its message names, and the frames of the builds, with what each
/// resolved (``BuildRecord``); and what waits to be released flat (``FlatRelease``).
///
/// Only its own thread touches it, so it needs no lock, and it is not `Sendable`.
///
/// Its properties are `@exclusivity(unchecked)`: a class's stored properties are otherwise
/// checked at run time on every access (a cost larger than the rest of an on-demand
/// resolution's bookkeeping). It is safe: only the thread that owns the object touches it, and
/// each access is a whole read or a whole `append`/`removeLast`/subscript write that calls no
/// code of the user's while it lasts, so no two accesses overlap.
final class ThreadBuilds {
  /// The injections building or delegating on the thread, outermost first.
  // NB: `unowned(unsafe)`: what entered an injection holds it until it leaves (the engine, the
  // slot's build), and only the thread reads the list.
  @exclusivity(unchecked) var entered: [Unowned] = []
  /// The identifiers of `entered`, once it is deeper than ``BuildChain`` scans: so that a
  /// chain of any length checks each step for a cycle in constant time.
  @exclusivity(unchecked) var enteredIndex: Set<ObjectIdentifier>? = nil
  /// The frames of the builds in progress, outermost first.
  @exclusivity(unchecked) var records: [BuildRecord] = []
  /// What the thread releases flat.
  let releases = FlatRelease()

  struct Unowned {
    unowned(unsafe) let injection: any BuildIdentity
  }
}

extension FlatRelease {
  /// The calling thread's: for what a sendable injection lets go of, on whichever thread.
  static var onThisThread: FlatRelease { CurrentThread.builds.releases }
}
