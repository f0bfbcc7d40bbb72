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
  /// Returns what ``leave(_:)`` takes: the thread's builds, unretained, which the caller leaves
  /// on this thread (``CurrentThread/unretainedBuilds``).
  ///
  /// Inlined: a build on the sendable fast path, which is not specialized for the injection's
  /// type, would otherwise pay a call and the closure's.
  @inline(__always)
  static func enter(_ injection: some BuildIdentity) -> Unmanaged<ThreadBuilds> {
    let unretained = CurrentThread.unretainedBuilds
    unretained.withGuaranteedReference { builds in
      if isEntered(injection, in: builds) {
        cycle(at: injection, in: builds)
      }
      builds.entered.append(ThreadBuilds.Unowned(injection: injection))
    }
    return unretained
  }

  /// How deep a thread's chain is scanned for a cycle.
  ///
  /// Deeper, its identifiers are kept in a set, so that a chain of any length costs each step a
  /// constant, where scanning cost a long chain time in the square of its length (5,000
  /// delegations: two thirds of their resolution). Builds nest a few deep, where a scan costs
  /// less than hashing.
  private static let scannedDepth = 32

  /// Whether `injection` is building or delegating on the thread of `builds`.
  @inline(__always)
  private static func isEntered(_ injection: some BuildIdentity, in builds: ThreadBuilds) -> Bool {
    guard builds.entered.count >= scannedDepth else {
      return builds.entered.contains { $0.injection === injection }
    }
    return isIndexed(ObjectIdentifier(injection), in: builds)
  }

  /// Whether `injection` is in the index of the deep chain of `builds`, which it joins.
  @inline(never)
  private static func isIndexed(_ injection: ObjectIdentifier, in builds: ThreadBuilds) -> Bool {
    // Taken out while it changes, so that it is not copied.
    var index = builds.enteredIndex.take() ?? Set(builds.entered.map { ObjectIdentifier($0.injection) })
    let isEntered = !index.insert(injection).inserted
    builds.enteredIndex = index
    return isEntered
  }

  static func leave(_ unretained: Unmanaged<ThreadBuilds>) {
    unretained.withGuaranteedReference { builds in
      let left = builds.entered.removeLast()
      if builds.entered.count >= scannedDepth - 1 {
        unindex(left, in: builds)
      }
    }
  }

  /// Takes `left`, which just left the deep chain of `builds`, out of its index; drops the index
  /// once the chain is back within the scanned depth, which does not read it.
  @inline(never)
  private static func unindex(_ left: ThreadBuilds.Unowned, in builds: ThreadBuilds) {
    guard var index = builds.enteredIndex.take(), builds.entered.count >= scannedDepth else { return }
    index.remove(ObjectIdentifier(left.injection))
    builds.enteredIndex = index
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
