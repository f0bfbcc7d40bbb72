import Inject
import Testing

@testable import InjectTesting

/// A strict test's reports are recorded in the test: at once from its own tasks, and when its
/// scope ends from anywhere else (a callback, a detached task, another test's task), where Swift
/// Testing would attribute them to no test, or to another.
@Suite struct UntestedReportsTests {
  @Test func aReportFromTheTestsOwnTaskIsRecordedAtOnce() async {
    let recorded = Recorded()
    let reports = UntestedReports(recording: recorded.append)
    let atOnce = await reports.scope {
      reports.report(UntestedResolution(injection: "A", location: CodeLocation(fileID: "T.swift", line: 1)))
      return recorded.names
    }
    #expect(atOnce == ["A"])
    #expect(recorded.names == ["A"])
  }

  @Test(.timeLimit(.minutes(4))) func aReportFromADetachedTaskWaitsForTheEndOfTheScope() async {
    let recorded = Recorded()
    let reports = UntestedReports(recording: recorded.append)
    let duringTheScope = await reports.scope {
      await Task.detached {
        reports.report(UntestedResolution(injection: "B", location: CodeLocation(fileID: "T.swift", line: 2)))
      }.value
      return recorded.names
    }
    #expect(duringTheScope.isEmpty, "recorded in the test, as its scope ends")
    #expect(recorded.names == ["B"])
  }
}

/// What a test's recorder received.
private final class Recorded: Sendable {
  private let reports = Locked<[String]>([])
  var names: [String] { reports.withLock { $0 } }
  @Sendable func append(_ report: UntestedResolution) {
    reports.withLock { $0.append(report.injection) }
  }
}
