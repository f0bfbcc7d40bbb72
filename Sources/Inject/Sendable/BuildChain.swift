/// What the diagnostics of a build on any thread need to know of an injection.
@usableFromInline
package protocol BuildIdentity: AnyObject, Sendable {
  /// The injection's type and where it was published, such as
  /// `SendableInjection<any APIClient> (ProfileKit/APIClient.swift:12)`.
  var label: String { get }
}

/// The builds of sendable injections in progress on the calling thread (``ThreadBuilds``): for
/// the cycle check of injections that build on any thread, and the chain its message names.
///
/// A build is synchronous, so it runs on one thread from start to end, and the builds it causes
/// nest inside it on that thread. An injection asked again on the thread that is building it is
/// therefore asked from inside its own build: a cycle.
@usableFromInline
package enum BuildChain {
  /// Enters `injection` on this thread, which builds or delegates for it; stops with a message
  /// naming the chain if it is entered already (a cycle).
  ///
  /// Returns what ``leave(_:)`` takes.
  static func enter(_ injection: some BuildIdentity) -> ThreadBuilds {
    let builds = CurrentThread.builds
    if builds.entered.contains(where: { $0.injection === injection }) {
      cycle(at: injection, in: builds)
    }
    builds.entered.append(ThreadBuilds.Unowned(injection: injection))
    return builds
  }

  /// Leaves the innermost injection that ``enter(_:)`` entered on this thread.
  static func leave(_ builds: ThreadBuilds) {
    builds.entered.removeLast()
  }

  /// Runs `body`, the build of `injection` on this thread; stops with the cycle message if
  /// `injection` is being built on this thread already.
  @usableFromInline
  package static func building<R>(_ injection: some BuildIdentity, _ body: () -> R) -> R {
    let builds = enter(injection)
    defer { leave(builds) }
    return body()
  }

  /// The injections being built on this thread, outermost first.
  static var injections: [any BuildIdentity] {
    CurrentThread.builds.entered.map(\.injection)
  }

  /// Stops the program: `injection` was asked for an instance on the thread that is building it.
  static func cycle(at injection: some BuildIdentity) -> Never {
    cycle(at: injection, in: CurrentThread.builds)
  }

  private static func cycle(at injection: some BuildIdentity, in builds: ThreadBuilds) -> Never {
    let chain = builds.entered.map(\.injection)
    let start = chain.firstIndex { $0 === injection } ?? 0
    CycleMessages.stopForCycle(
      chain[start...].map(\.label) + [injection.label], alsoBuilding: Resolution.mainActorChainOnMainThread,
      ofKind: .mainActor)
  }
}
