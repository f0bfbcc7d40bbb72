import Inject
import InjectTesting
import Testing

/// The leak report covers every world opened inside the test's: an override scope in the
/// test, or an override trait applied inside the isolating one, builds there.
@Suite @MainActor struct LeakReportTests {
  @Test func aMockBuiltInAScopeInsideTheTestAndCapturedByAGlobalIsReported() async {
    var reported: [String] = []
    await withIsolatedInjections(
      reportingLeaks: { leaks in reported = leaks.map(\.description) },
      operation: {
        mockable.withOverride(Mock("scoped")) {
          Captured.mocks.append(Reader().mock)
        }
      })
    Captured.mocks.removeAll()
    #expect(reported.count == 1)
    #expect(reported.first?.contains("Injection<Mock>") == true)
  }

  @Test func nothingIsReportedForAScopeInsideTheTestThatLeavesNothingBehind() async {
    var reported: [String]?
    await withIsolatedInjections(
      reportingLeaks: { reported = $0.map(\.description) },
      operation: {
        mockable.withOverride(Mock("scoped")) { _ = Reader().mock }
      })
    #expect(reported == [])
  }
}

/// A global that captures what it is given: the leak the report catches.
@MainActor
private enum Captured {
  static var mocks: [Mock] = []
}

final class Mock: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private let mockable = Injection<Mock>(strategy: .singleton, instance: Mock("live"))

private final class Reader {
  @Instance(mockable) var mock
}
