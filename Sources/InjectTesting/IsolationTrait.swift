import Inject
public import Testing

/// A Swift Testing trait that runs each test in a fresh world of injections.
///
/// Every injection that the test resolves keeps its `.singleton` and `.shared` instances in
/// the test's world, never in the global one, so the test sees the same dependency graph
/// whatever ran before it or runs beside it. It is `withIsolatedInjections(operation:)` around
/// each test:
///
/// ```swift
/// @Suite(.isolatedInjections)
/// @MainActor struct RepositoryTests {
///   @Test func buildsItsOwnRepository() {
///     // …
///   }
/// }
/// ```
///
/// It is a test world: injections resolve their published test value by default. Three checks
/// are opt-in:
/// - `strict: true` records an issue for every injection the test resolves that has neither a
///   test value nor an override in the test, so that no test reaches a live network or
///   database by accident, and for every override the test gave that nothing resolved (an
///   `override(with:)` that an initializer pushes and an `.overriding` trait on the suite are
///   the suite's set-up, not the test's, and are not reported);
/// - `reportingLeaks: true` records an issue for every object built in the test's world that is
///   still alive after the test: something outside the test holds it, such as a global or a
///   task that outlived the test;
/// - `checkingGraph: true` records an issue for every lifetime bug in the graph that the test's
///   world holds when the test ends (``expectNoLifetimeProblems(roots:followingReferences:sourceLocation:)``).
public struct IsolationTrait: TestTrait, SuiteTrait, TestScoping {
  let reportsLeaks: Bool
  let isStrict: Bool
  var checksGraph = false

  /// On a suite, each test gets its own world.
  public var isRecursive: Bool { true }

  /// Runs `function` in a fresh world.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    try await scopingEachTestCase(testCase, function) { function in
      let sourceLocation = test.sourceLocation
      let checkGraph: (@MainActor @Sendable () -> Void)? =
        checksGraph
        ? { @MainActor in _ = recordLifetimeProblems(at: sourceLocation, skippingRecorded: true) } : nil
      let untested = UntestedReports(recording: reportUntested)
      try await RecordedLifetimeProblems.$current.withValue(checksGraph ? RecordedLifetimeProblems() : nil) {
        try await untested.scope {
          try await withIsolatedInjections(
            reportingLeaks: reportsLeaks ? reportLeaks : nil, reportingUntested: isStrict ? untested.report : nil,
            reportingUnused: isStrict ? reportUnused : nil, checkingGraph: checkGraph, operation: function)
        }
      }
    }
  }
}

/// Records each leak as a test issue.
@MainActor
private func reportLeaks(_ leaks: [LeakedInstance]) {
  for leak in leaks {
    recordIssue(leak.description, at: leak.firstResolvedAt)
  }
}

/// Records an override that the test never resolved as a test issue.
@MainActor
private func reportUnused(_ unused: UnusedOverride) {
  recordIssue(unused.description, at: unused.location)
}

/// Records an untested resolution as a test issue, on the thread that resolved: inside the test's
/// tasks, where it belongs to the test.
@Sendable
private func reportUntested(_ untested: UntestedResolution) {
  recordIssue(untested.description, at: untested.location)
}

extension Trait where Self == IsolationTrait {
  /// Runs the test, or each test of the suite, in a fresh test world of injections.
  ///
  /// ```swift
  /// @Test(.isolatedInjections) @MainActor func buildsItsOwnRepository() {
  ///   // …
  /// }
  /// ```
  public static var isolatedInjections: Self { Self(reportsLeaks: false, isStrict: false) }

  /// Runs the test, or each test of the suite, in a fresh test world of injections, with
  /// checks.
  ///
  /// ```swift
  /// @Suite(.isolatedInjections(strict: true, reportingLeaks: true, checkingGraph: true))
  /// @MainActor struct CheckoutTests {
  ///   // …
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - strict: Whether to record an issue, naming the injection and the consumer's location,
  ///     when the test resolves an injection that has neither a test value nor an override in
  ///     the test (it then gets the live implementation), and one, where it was given, for every
  ///     override the test gave that nothing resolved, except the suite's set-up (what its
  ///     `init()` pushes, its `.overriding` traits).
  ///   - reportingLeaks: Whether to record an issue, naming the injection and where it was
  ///     first resolved, for every object built in the test's world that is still alive once
  ///     the test has ended and its world is released.
  ///   - checkingGraph: Whether to record an issue for every lifetime bug (a captive `.shared`
  ///     instance, a reference cycle of `.shared` instances) in the graph that the test's world
  ///     holds when the test ends, naming the path with types and locations, at the test's
  ///     `@Test` line; except the problems that the test's own `expectNoLifetimeProblems` calls
  ///     recorded, so that a test expects a problem by checking inside `withKnownIssue`.
  /// - Returns: A trait that runs each test it applies to in its own world.
  public static func isolatedInjections(
    strict: Bool = false, reportingLeaks: Bool = false, checkingGraph: Bool = false
  ) -> Self {
    Self(reportsLeaks: reportingLeaks, isStrict: strict, checksGraph: checkingGraph)
  }
}

/// Records `message` as a test issue at `location`, a location Inject recorded.
private func recordIssue(_ message: String, at location: CodeLocation) {
  let file = location.fileID.description
  Issue.record(
    Comment(rawValue: message),
    sourceLocation: SourceLocation(fileID: file, filePath: file, line: Int(location.line), column: 1))
}
