/// What a test process checks that no other process does: the misuses that make a test pass
/// alone and break the tests that run beside it, or reach a live service from a test.
///
/// Each is recorded as an ``InjectionEvent`` (a debug warning with no telemetry installed) in a
/// test process only (``ProcessContext/isTesting``); nothing changes elsewhere. The engine
/// applies them to both kinds of injection: a global override pushed outside every test world
/// (``isFirstGlobalPush(at:)``), and a live value built there although the injection publishes
/// a test value (`Engine`'s live-build check).
enum TestProcessChecks {
  /// Whether the checks run: in a test process.
  static let areActive = ProcessContext.isTesting

  /// The call sites of global overrides already reported.
  private static let reportedPushSites = Locked<Set<String>>([])

  /// Whether a global override pushed at `location`, outside any test world, is to be reported:
  /// in a test process, once per call site.
  static func isFirstGlobalPush(at location: CodeLocation) -> Bool {
    areActive && reportedPushSites.withLock { $0.insert("\(location)").inserted }
  }
}
