/// What an injection of either kind notes of the resolutions in the global world, for its
/// warnings.
///
/// Where a consumer first resolved it from a layer still on the global stack, and whether a test
/// process reported its live build; kept in the injection's state, under its guard.
@usableFromInline
struct GlobalNotes: Sendable {
  /// Where a consumer of the global world first resolved the injection from a layer still on
  /// the global stack.
  ///
  /// It reports overrides pushed too late: one that shadows a layer consumers resolved from.
  /// Forgotten when a rollback pops that layer; see ``firstResolvedDepth``.
  @usableFromInline
  var firstResolvedAt: CodeLocation?
  /// The depth of the global stack (0: the published layer) that the resolution at
  /// ``firstResolvedAt`` resolved from.
  ///
  /// It is the lowest depth any consumer still on the stack resolved from: a consumer resolves
  /// from the top, and the stack goes below this depth only by a rollback that forgets both.
  /// Written with ``firstResolvedAt`` only, never on a resolution that finds it set, so that
  /// keeping it costs the resolution path nothing.
  @usableFromInline
  var firstResolvedDepth = 0
  /// Whether a test process reported that the injection built its live instance outside every
  /// test world.
  private var reportedLiveBuild = false

  @usableFromInline
  init() {}

  /// Notes, the first time, that a consumer at `location` resolves from the top of the global
  /// stack, `depth` overrides deep.
  @inlinable
  mutating func noteResolution(at location: CodeLocation, depth: Int) {
    if firstResolvedAt == nil {
      (firstResolvedAt, firstResolvedDepth) = (location, depth)
    }
  }

  /// Notes that the global stack was popped to `depth`: if the layer that consumers first
  /// resolved from went, none resolved from what is left.
  mutating func popped(to depth: Int) {
    if firstResolvedDepth > depth {
      (firstResolvedAt, firstResolvedDepth) = (nil, 0)
    }
  }

  /// Whether the live build was reported before; it is reported from now on.
  mutating func reportLiveBuildOnce() -> Bool {
    defer { reportedLiveBuild = true }
    return reportedLiveBuild
  }
}
