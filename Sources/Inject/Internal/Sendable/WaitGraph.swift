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
enum WaitGraph {
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

  /// Notes that the calling thread waits for `awaited`, being built by another thread, then
  /// runs `wait`; stops with the cycle message if the waits would never end.
  static func waiting(for awaited: some AwaitedBuild, _ wait: () -> Void) {
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
      BuildChain.stopForCycle(cycle)
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
