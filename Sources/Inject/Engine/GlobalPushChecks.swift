/// The checks that every push onto the global stack makes, an injection's or a family's: whether
/// it shadows a layer that a consumer of the global world resolved from (a stale override), and
/// whether a test process pushes it outside every test world.
enum GlobalPushChecks {
  /// Records with `record` the misuses of a push onto the global stack at `location`, which
  /// shadows the layer that a consumer first resolved from at `firstResolvedAt`, if any.
  static func check(
    at location: CodeLocation, shadowing firstResolvedAt: CodeLocation?, record: (InjectionEvent.Kind) -> Void
  ) {
    if let firstResolvedAt {
      record(.staleOverride(firstResolvedAt: firstResolvedAt))
    }
    if TestProcessChecks.isFirstGlobalPush(at: location) {
      record(.globalOverrideInTest)
    }
  }
}
