public import _InjectShims

/// What a `@SendableInstance` holds, published so that the graph's capture reads it from the main
/// actor without racing the isolation that guards the property: an actor's, most often.
///
/// A `@SendableInstance` storage is read and written in the isolation of the object that declares
/// it, with no lock: that is why a steady read costs one load. The capture runs elsewhere, so it
/// reads only what the consumer published, through this protocol:
///
/// - The header's `hasInstance` is the publication's flag. Only the consumer's isolation writes it.
/// - The consumer's first instance (it held none: the first read's resolution, or an assignment
///   before any read) is stored in the element, then the flag is set with a release store
///   (`_inject_flag_release`), with no lock: on x86-64 the plain store it was, on arm64 one
///   `stlrb`. This is the path every consumer takes once, so it costs what it did.
/// - Replacing or dropping an instance it holds (an assignment, `reset()`) happens under
///   ``publicationLock``; the old instance is released once the lock is, so that no `deinit` runs
///   under it.
/// - The capture takes ``publicationLock``, reads the flag with an acquire load
///   (`_inject_flag_acquire`), and copies the element (a retain) only if the flag is set.
///
/// Why the capture's copy never races a write of the element: the consumer writes the element
/// either under the lock that the copy holds, or while the flag is clear (it was cleared under
/// that lock, or never set) and before its release store sets it; a copy follows an acquire load
/// that found the flag set, so such a write is ordered before it, and a capture that finds the
/// flag clear reads no element. The consumer's own reads of the flag and the element are plain
/// loads, which only race writes, and the capture writes nothing. The capture keeps the storage
/// alive while it reads, so `deinit` (which destroys the element without the lock) cannot run
/// meanwhile; and it reads the storage's address from the object's `_property`, which its
/// initializer writes before the object is shared and which no consumer writes again.
///
/// The flag's address is taken from the header's pointer (`pointer(to:)`), never with `&`: an
/// inout access is a write, which ThreadSanitizer would see racing the other side's atomic access.
extension InstanceStorage {
  /// Stores `newValue` and publishes it: the instance that a `@SendableInstance` resolved or was
  /// assigned, or none (`reset()`).
  ///
  /// The first instance of a consumer that holds none is published with one release store, with
  /// no lock: the path of every first read. Anything else goes through ``publishReplacing(_:isLocal:)``.
  @inlinable
  func publish(_ newValue: Value?, isLocal: Bool) {
    let isStored = withUnsafeMutablePointers { header, element in
      guard !header.pointee.hasInstance, let newValue else { return false }
      element.initialize(to: newValue)
      header.pointee.isLocal = isLocal
      _inject_flag_release(header.pointer(to: \.hasInstance).unsafelyUnwrapped, true)
      return true
    }
    if !isStored {
      publishReplacing(newValue, isLocal: isLocal)
    }
  }

  /// Replaces or drops the published instance under ``publicationLock``, then releases the old
  /// one, outside the lock.
  @usableFromInline
  func publishReplacing(_ newValue: Value?, isLocal: Bool) {
    let old = publicationLock.withLock { _ in exchange(newValue, isLocal: isLocal, publishing: true) }
    withExtendedLifetime(old) {}
  }

  /// The instance that the consumer published, copied from any thread; `nil` if it holds none.
  ///
  /// It may be older than what the consumer holds a moment later: the consumer goes on running.
  func publishedInstance() -> Value? {
    publicationLock.withLock { _ in
      withUnsafeMutablePointers { header, element in
        _inject_flag_acquire(header.pointer(to: \.hasInstance).unsafelyUnwrapped) ? element.pointee : nil
      }
    }
  }
}

/// The lock under which a `@SendableInstance` replaces or drops its published instance, and the
/// graph's capture copies one: one for the process, since both are rare (a consumer's first
/// instance takes no lock) and neither runs code of the user's under it.
let publicationLock = Locked(())
