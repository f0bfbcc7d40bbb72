/// What a test process checks that no other process does: the misuses that make a test pass
/// alone and break the tests that run beside it, or reach a live service from a test.
///
/// Each is recorded as an ``InjectionEvent`` (a debug warning with no telemetry installed) in a
/// test process only (``ProcessContext/isTesting``); nothing changes elsewhere.
@MainActor
enum TestProcessChecks {
  /// Whether the checks run: in a test process.
  static let areActive = ProcessContext.isTesting

  /// The call sites of global overrides already reported.
  private static var reportedPushSites: Set<String> = []

  /// Notes a global override of `injection` pushed at `location`, outside any test world;
  /// reports it once per call site.
  static func noteGlobalPush<T>(_ injection: Injection<T>, at location: CodeLocation) {
    guard areActive, World.current?.isTest != true, reportedPushSites.insert("\(location)").inserted else { return }
    Telemetry.record(.globalOverrideInTest, injection, at: location)
  }

  /// Notes a global override of the sendable injection labeled `injection`, published at
  /// `publishedAt`, pushed at `location` outside any test world; reports it once per call site.
  static func noteGlobalPush(of injection: String, publishedAt: CodeLocation, at location: CodeLocation) {
    guard areActive, reportedPushSites.insert("\(location)").inserted else { return }
    Telemetry.record(.globalOverrideInTest, injection: injection, publishedAt: publishedAt, at: location)
  }

  /// Notes that `injection` built its live instance in the global world for a consumer at
  /// `location`; reports it once per injection if the injection publishes a test value.
  static func noteLiveBuild<T>(_ injection: Injection<T>, for location: CodeLocation) {
    guard areActive, injection.testLayer != nil, !injection.state.access({ $0.reportedLiveBuildInTest }) else {
      return
    }
    injection.state.access { $0.reportedLiveBuildInTest = true }
    Telemetry.record(.liveValueInTest, injection, at: location)
  }
}
