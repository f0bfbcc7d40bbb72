/// State shared between threads, behind a ``PlatformLock``.
///
/// The lock and the state are allocated apart from the object, so that the lock's address is
/// stable for its whole life and reading the state costs no dynamic exclusivity check.
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
  @usableFromInline
  let lock = UnsafeMutablePointer<PlatformLock>.allocate(capacity: 1)
  @usableFromInline
  let state = UnsafeMutablePointer<State>.allocate(capacity: 1)

  /// A lock around `state`.
  package init(_ state: State) {
    self.state.initialize(to: state)
    lock.initialize(to: PlatformLock())
    PlatformLock.prepare(lock)
  }

  /// Runs `body` with the state, which it may change, while holding the lock.
  ///
  /// `body` must not lock this lock again, and must run no code of the user's. Inlined, so
  /// that the caller's code is specialized for the state's type.
  @inlinable
  package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    PlatformLock.acquire(lock)
    defer { PlatformLock.release(lock) }
    return try body(&state.pointee)
  }

  deinit {
    PlatformLock.destroy(lock)
    lock.deinitialize(count: 1)
    lock.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }
}

/// Read back from a world's sendable part, which the index of the parts that hold each layer's
/// slots keeps type-erased. Safe: it lists a part under the layers of its own kind only, and
/// a sendable layer's parts are read back as the guard of a part of that kind, a
/// `Locked<WorldPart>` (``WorldPartGuard/withPart(ofSameKind:_:)``).
extension Locked: Unerasable {}
