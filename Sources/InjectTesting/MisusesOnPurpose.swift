import Inject
package import Testing

/// A trait that silences the debug warnings of tests that misuse injections on purpose.
///
/// For the suites that push global overrides in a test process, roll back with nothing
/// pushed or override late on purpose, so that `swift test` prints no warning. DebugWarningsTests and
/// TestProcessWarningTests check the warnings themselves.
package struct MisusesOnPurpose: SuiteTrait, TestTrait, TestScoping {
  package var isRecursive: Bool { true }

  package func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withDebugWarningsSilenced { try await function() }
  }
}

extension Trait where Self == MisusesOnPurpose {
  /// Silences the debug warnings of tests that misuse injections on purpose: for Inject's own
  /// test suites, which check the warnings apart.
  package static var misusesOnPurpose: Self { Self() }
}
