import Inject
import Testing

/// A strict test's reports of untested live resolutions, recorded as issues of that test
/// wherever they happen.
///
/// A model made in the test resolves in the test's world from a callback, a detached task or a
/// queue too, where Swift Testing knows no current test, or knows another one running beside
/// it. A report made in the test's own tasks is recorded at once; one made elsewhere waits, and
/// is recorded when the test's scope ends, in the test.
final class UntestedReports: Sendable {
  /// The reports of the test whose tasks run the current code, if any.
  @TaskLocal static var current: UntestedReports?

  /// Records an issue.
  private let record: @Sendable (UntestedResolution) -> Void
  /// The reports made outside the test's own tasks, not recorded yet.
  private let waiting = Locked<[UntestedResolution]>([])

  /// Reports that `record` records.
  init(recording record: @escaping @Sendable (UntestedResolution) -> Void) {
    self.record = record
  }

  /// Runs `operation`, in whose tasks a report is recorded at once; then records the reports
  /// made elsewhere meanwhile.
  func scope<R>(
    isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
  ) async rethrows -> R {
    defer {
      for report in waiting.withLock({ $0.take() }) {
        record(report)
      }
    }
    return try await Self.$current.withValue(self, operation: operation, isolation: isolation)
  }

  /// Records `report` now, in the test's own tasks, else once the test's scope ends.
  @Sendable
  func report(_ report: UntestedResolution) {
    guard Self.current === self else {
      waiting.withLock { $0.append(report) }
      return
    }
    record(report)
  }
}

extension Array {
  /// Empties the array; returns what it held.
  fileprivate mutating func take() -> Self {
    defer { self = [] }
    return self
  }
}
