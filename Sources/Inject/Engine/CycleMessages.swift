/// The messages that stop the program on a loop, for both kinds of injection: a dependency cycle,
/// found on either kind's chain of builds in progress (``BuildChain``, ``Resolution``) or across
/// threads (``WaitGraph``), and an override that would make an injection resolve from itself.
enum CycleMessages {
  /// Stops the program with the message for a dependency cycle through `labels`, the first
  /// repeated at the end; `alsoBuilding` names the builds of injections of `kind`, the other
  /// kind, in progress on this thread, outermost first, which the cycle may pass through: each
  /// kind keeps its own chain, so the message names them apart.
  static func stopForCycle(
    _ labels: [String], alsoBuilding: [String] = [], ofKind kind: InjectionKind = .sendable
  ) -> Never {
    let kindName = kind == .mainActor ? "main-actor" : "sendable"
    let other =
      alsoBuilding.isEmpty
      ? ""
      : ", through the builds of \(kindName) injections in progress on this thread: "
        + alsoBuilding.joined(separator: " → ")
    fatalError(
      "Dependency cycle: \(labels.joined(separator: " → "))\(other). "
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
