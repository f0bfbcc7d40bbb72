/// The threads waiting for another thread's build, to stop a cycle across threads with the cycle
/// message instead of a deadlock.
///
/// Thread A builds X, whose factory needs Y; thread B builds Y, whose factory needs X: each
/// would wait for the other forever. Before a thread waits for a build, it notes the edge here
/// and follows the edges from the thread it waits for: if they lead back to it, the wait would
/// never end. The note and the walk happen under one lock, so of the threads that close a cycle,
/// the last to note its edge sees the whole cycle.
///
/// Only threads that wait take this lock, never a resolution that finds its instance or builds
/// it uncontended.
///
/// It sees only the waits for Inject's builds. A cycle that passes through a wait of the user's
/// (a factory that blocks on a semaphore, a lock or a queue's `sync` for work that resolves an
/// injection whose build waits for it) is not seen: that wait never ends. So a wait for another
/// thread's build that lasts ``reportAfter`` seconds is reported, once, naming both injections
/// and the building thread's chain, as an ``InjectionEvent/Kind/waitingForBuild(building:chain:)``
/// event (a debug warning with no telemetry installed, shown by the waiting thread itself, since
/// the thread that the wait is for may be the main thread, blocked); the wait goes on.
package enum WaitGraph {
  /// How long a wait for another thread's build lasts before it is reported, in seconds: five,
  /// unless a test of the package's shortens it.
  package static var reportAfter: Double {
    get { reportDelay.withLock { $0 } }
    set { reportDelay.withLock { $0 = newValue } }
  }
  private static let reportDelay = Locked<Double>(5)

  /// ``reportAfter``, for the message: `5 seconds`, `0.25 seconds`.
  static var reportAfterText: String {
    let seconds = reportAfter
    return "\(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) seconds"
  }
  /// A thread's wait: the build it waits for, and its own builds, outermost first.
  private struct Edge: Sendable {
    let awaited: any AwaitedBuild
    let chain: [Link]
  }

  /// An injection of a chain, for the message.
  private struct Link: Sendable {
    let injection: ObjectIdentifier
    let label: String
  }

  /// The waits in progress, by waiting thread.
  private static let edges = Locked<[UInt: Edge]>([:])

  /// Reports that `waiter`'s resolution for a consumer at `location` has waited ``reportAfter``
  /// seconds for `awaited`.
  static func reportLongWait(of waiter: some BuildIdentity, for awaited: SlotBuild, at location: CodeLocation) {
    guard let waiter = waiter as? any ReportsWaits else { return }
    waiter.reportWait(
      for: awaited.injection.label, chain: (awaited.chain + [awaited.injection]).map(\.label), at: location)
  }

  /// Notes that the calling thread waits for `awaited`, being built by another thread, for a
  /// resolution of `waiter`, then runs `wait`; stops with the cycle message if the waits would
  /// never end.
  static func waiting(for awaited: some AwaitedBuild, by waiter: some BuildIdentity, _ wait: () -> Void) {
    let me = CurrentThread.id
    let chain = BuildChain.injections.map { Link(injection: ObjectIdentifier($0), label: $0.label) }
    let cycle: [String]? = edges.withLock { edges in
      var path = [Edge(awaited: awaited, chain: chain)]
      var next: any AwaitedBuild = awaited
      // Each thread waits for at most one build, so a walk longer than the waits noted is in a
      // cycle that does not pass through this thread (and was stopped by one of its own).
      while let builder = next.builder {
        if builder == me {
          return labels(around: path)
        }
        guard let edge = edges[builder], path.count <= edges.count else { break }
        path.append(edge)
        next = edge.awaited
      }
      edges[me] = Edge(awaited: awaited, chain: chain)
      return nil
    }
    if let cycle {
      CycleMessages.stopForCycle(cycle)
    }
    defer { _ = edges.withLock { $0.removeValue(forKey: me) } }
    wait()
  }

  /// The labels of the cycle that `path` closes: each thread's builds from the one the thread
  /// before it waits for, then the build it waits for, back to where the cycle started.
  private static func labels(around path: [Edge]) -> [String] {
    var labels: [String] = []
    for (index, edge) in path.enumerated() {
      // The build that the thread before this one (cyclically) waits for, which this one runs.
      let entered = path[(index + path.count - 1) % path.count].awaited.injection
      let start = edge.chain.firstIndex { $0.injection == ObjectIdentifier(entered) } ?? 0
      labels += edge.chain[start...].map(\.label)
    }
    return labels + [labels.first ?? path[0].awaited.injection.label]
  }
}

/// A build that a thread may wait for: its injection, and the thread building it now.
protocol AwaitedBuild: AnyObject, Sendable {
  /// The injection whose instance is being built.
  var injection: any BuildIdentity { get }
  /// The thread building it now, or `nil` once the build has ended.
  var builder: UInt? { get }
}

/// An injection whose resolution reports a long wait for another thread's build.
protocol ReportsWaits: BuildIdentity {
  /// Reports that a resolution for a consumer at `location` has waited for another thread's
  /// build of `building`, which that thread runs inside the builds of `chain`.
  func reportWait(for building: String, chain: [String], at location: CodeLocation)
}
