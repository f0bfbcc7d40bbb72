import Testing

/// Runs `function` in `scope` when it runs a test case, and as it is when it runs a suite: a
/// trait on a suite scopes each of the suite's test cases, and the suite itself needs no scope.
///
/// - Parameters:
///   - testCase: The test case that `function` runs, or `nil` for a suite.
///   - function: What the test or suite runs.
///   - scope: Runs its argument in the trait's scope.
/// - Throws: What `function` or `scope` throws.
func scopingEachTestCase(
  _ testCase: Test.Case?,
  _ function: @Sendable () async throws -> Void,
  in scope: @escaping (@Sendable () async throws -> Void) async throws -> Void
) async throws {
  guard testCase != nil else { return try await function() }
  try await scope(function)
}
