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
///   @Test func buildsItsOwnRepository() { /* ... */ }
/// }
/// ```
///
/// With `reportingLeaks: true`, the trait also records an issue for every object built in the
/// test's world that is still alive after the test: something outside the test holds it, such
/// as a global or a task that outlived the test.
public struct IsolationTrait: TestTrait, SuiteTrait, TestScoping {
  let reportsLeaks: Bool

  /// On a suite, each test gets its own world.
  public var isRecursive: Bool { true }

  /// Runs `function` in a fresh world.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite's trait scopes each test case; the suite itself needs no world of its own.
    guard testCase != nil else { return try await function() }
    guard reportsLeaks else {
      return try await withIsolatedInjections(operation: function)
    }
    try await withIsolatedInjections(
      reportingLeaks: { leaks in
        for leak in leaks {
          Issue.record(
            Comment(rawValue: leak.description),
            sourceLocation: SourceLocation(
              fileID: leak.firstResolvedAt.fileID.description, filePath: leak.firstResolvedAt.fileID.description,
              line: Int(leak.firstResolvedAt.line), column: 1))
        }
      }, operation: function)
  }
}

extension Trait where Self == IsolationTrait {
  /// Runs the test, or each test of the suite, in a fresh world of injections.
  ///
  /// ```swift
  /// @Test(.isolatedInjections) func buildsItsOwnRepository() { /* ... */ }
  /// ```
  public static var isolatedInjections: Self { Self(reportsLeaks: false) }

  /// Runs the test, or each test of the suite, in a fresh world of injections, and reports
  /// instances built there that outlive the test.
  ///
  /// ```swift
  /// @Test(.isolatedInjections(reportingLeaks: true))
  /// func leavesNothingBehind() { /* ... */ }
  /// ```
  ///
  /// - Parameter reportingLeaks: Whether to record an issue, naming the injection and where it
  ///   was first resolved, for every object built in the test's world that is still alive once
  ///   the test has ended and its world is released.
  /// - Returns: A trait that runs each test it applies to in its own world.
  public static func isolatedInjections(reportingLeaks: Bool) -> Self { Self(reportsLeaks: reportingLeaks) }
}
