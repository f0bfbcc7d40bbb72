/// What the diagnostics of a build on any thread need to know of an injection.
@usableFromInline
package protocol BuildIdentity: AnyObject, Sendable {
  /// The injection's type and where it was published, such as
  /// `SendableInjection<any APIClient> (ProfileKit/APIClient.swift:12)`.
  var label: String { get }
}

/// The builds in progress on the calling thread, as a chain of frames on the thread's stack: for
/// the cycle check of injections that build on any thread, and the chain its message names.
///
/// A build is synchronous, so it runs on one thread from start to end, and the builds it causes
/// nest inside it on that thread. An injection asked again on the thread that is building it is
/// therefore asked from inside its own build: a cycle.
@usableFromInline
package enum BuildChain {
  /// One build in progress: its injection and the frame it runs inside.
  private struct Frame {
    // NB: `unowned(unsafe)`: the build that pushed the frame holds the injection until it pops
    // the frame, and the frame is only read by its own thread while it is pushed.
    unowned(unsafe) let injection: any BuildIdentity
    let outer: UnsafeMutableRawPointer?
  }

  /// Runs `body`, the build of `injection` on this thread; stops with a message naming the chain
  /// if `injection` is being built on this thread already (a cycle).
  @usableFromInline
  package static func building<R>(_ injection: some BuildIdentity, _ body: () -> R) -> R {
    let outer = CurrentThread.innermostBuild
    if contains(injection, from: outer) {
      cycle(at: injection)
    }
    var frame = Frame(injection: injection, outer: outer)
    return withUnsafeMutablePointer(to: &frame) { frame in
      CurrentThread.innermostBuild = UnsafeMutableRawPointer(frame)
      defer { CurrentThread.innermostBuild = outer }
      return body()
    }
  }

  /// The injections being built on this thread, outermost first.
  static var injections: [any BuildIdentity] {
    var injections: [any BuildIdentity] = []
    var next = CurrentThread.innermostBuild
    while let frame = next?.assumingMemoryBound(to: Frame.self).pointee {
      injections.append(frame.injection)
      next = frame.outer
    }
    return injections.reversed()
  }

  /// Whether the chain from `innermost` outwards builds `injection`.
  private static func contains(_ injection: AnyObject, from innermost: UnsafeMutableRawPointer?) -> Bool {
    var next = innermost
    while let frame = next?.assumingMemoryBound(to: Frame.self).pointee {
      if frame.injection === injection {
        return true
      }
      next = frame.outer
    }
    return false
  }

  /// Stops the program: `injection` was asked for an instance on the thread that is building it.
  static func cycle(at injection: some BuildIdentity) -> Never {
    let chain = injections.map(ObjectIdentifier.init)
    let labels = injections.map(\.label)
    let start = chain.firstIndex(of: ObjectIdentifier(injection)) ?? 0
    stopForCycle(Array(labels[start...]) + [injection.label])
  }

  /// Stops the program with the message for a dependency cycle through `labels`, the first
  /// repeated at the end.
  static func stopForCycle(_ labels: [String]) -> Never {
    fatalError(
      "Dependency cycle: \(labels.joined(separator: " → ")). "
        + "To fix this, break the cycle: read one of these dependencies lazily (after init) "
        + "or remove the override that closes the loop.")
  }

  /// Stops the program: overriding the injection labeled `injection` with the one labeled
  /// `other` would close `loop`, a chain of delegations back to itself.
  static func stopForOverrideLoop(_ injection: String, with other: String, loop: [String]) -> Never {
    fatalError(
      "Cannot override \(injection) with \(other): it would resolve from itself "
        + "(\(loop.joined(separator: " → "))). To fix this, override with a "
        + "different injection or with an instance.")
  }
}
