#if canImport(Synchronization)
import Synchronization
#endif

/// How many worlds are alive, read by a sendable injection's fast path from any thread.
///
/// While none is, no task can be in one, so resolution skips reading the current task's world
/// (a task-local, the costliest part of a resolution that finds its instance). The count is
/// kept in an `Atomic`, which needs macOS 15 or iOS 18; on older systems the fast path always
/// reads the task-local.
///
/// A task in a world holds it, and the world counted itself before any task could see it, so a
/// task that reads the count as zero is in no world.
@usableFromInline
enum WorldCount {
  #if canImport(Synchronization)
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  private final class Counter: Sendable {
    let value = Atomic(0)
  }

  /// The `Counter`, where the system has `Atomic`.
  private static let counter: (any AnyObject & Sendable)? = {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      return Counter()
    }
    return nil
  }()
  #endif

  /// Counts a world that was created.
  static func increment() {
    #if canImport(Synchronization)
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let counter {
      unsafeDowncast(counter, to: Counter.self).value.add(1, ordering: .sequentiallyConsistent)
    }
    #endif
  }

  /// Counts a world that was released.
  static func decrement() {
    #if canImport(Synchronization)
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let counter {
      unsafeDowncast(counter, to: Counter.self).value.subtract(1, ordering: .sequentiallyConsistent)
    }
    #endif
  }

  /// Whether no world is alive now; `false` where the count is not kept.
  @usableFromInline
  static var isNoneAlive: Bool {
    #if canImport(Synchronization)
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let counter {
      return unsafeDowncast(counter, to: Counter.self).value.load(ordering: .acquiring) == 0
    }
    #endif
    return false
  }
}
