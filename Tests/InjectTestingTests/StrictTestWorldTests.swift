import Inject
import InjectTesting
import Testing

/// Strict test worlds report, once per injection, every live instance a test resolves.
@Suite @MainActor struct StrictTestWorldTests {
  @Test func anInjectionWithNeitherATestValueNorAnOverrideIsReportedWithTheConsumersLocation() async {
    let reports = Reports()
    await withIsolatedInjections(
      reportingLeaks: nil, reportingUntested: { reports.append($0.description) },
      operation: {
        _ = LiveReader().value
        _ = LiveReader().value
        _ = TestedReader().value
        _ = LiveReader.overridden()
      })
    let reported = reports.all
    #expect(reported.count == 1, "once per injection, and neither the tested nor the overridden one")
    #expect(reported.first?.contains("Injection<Probe> (InjectTestingTests/StrictTestWorldTests.swift:") == true)
    #expect(reported.first?.contains("resolved for InjectTestingTests/StrictTestWorldTests.swift:") == true)
  }

  @Test func anInjectionResolvedAgainInScopesInsideTheTestIsReportedOnce() async {
    let reports = Reports()
    await withIsolatedInjections(
      reportingLeaks: nil, reportingUntested: { reports.append($0.description) },
      operation: {
        _ = LiveReader().value
        tested.withOverride(Probe("mock")) { _ = LiveReader().value }
        withIsolatedInjections { _ = LiveReader().value }
      })
    let reported = reports.all
    #expect(reported.count == 1, "\(reported)")
  }

  @Test func aScopedDecoratorOverTheLiveInstanceIsReported() async {
    let reports = Reports()
    await withIsolatedInjections(
      reportingLeaks: nil, reportingUntested: { reports.append($0.description) },
      operation: {
        live.withOverride({ $0 }, strategy: .onDemand) { _ = LiveReader().value }
      })
    #expect(reports.all.count == 1, "the live factory ran beneath the decorator")
  }

  @Test(.isolatedInjections(strict: true))
  func aStrictTestThatResolvesOnlyTestValuesAndOverridesPasses() {
    #expect(TestedReader().value.name == "test")
    #expect(LiveReader.overridden().name == "mock")
  }
}

/// The Testing article's set-up and tear-down recipe under strict mode reports nothing.
///
/// The suite's initializer pushes an override in each test's world, which a test may use, roll
/// back, or never touch. None of that is one test's mistake.
@Suite(.isolatedInjections(strict: true))
@MainActor struct StrictSetUpAndTearDownTests {
  init() {
    tested.override(with: Probe("set-up"))
  }

  @Test func aTestThatResolvesTheSetUpsOverride() {
    #expect(TestedReader().value.name == "set-up")
  }

  @Test func aTestThatRollsTheSetUpsOverrideBack() {
    tested.rollbackOverride()
    #expect(TestedReader().value.name == "test")
  }

  @Test func aTestThatNeverTouchesTheSetUpsInjection() {
    #expect(LiveReader.overridden().name == "mock")
  }
}

/// An override trait applied to a strict suite is the suite's set-up too: a test that never
/// resolves that injection does not report it.
@Suite(.isolatedInjections(strict: true), .overriding(tested, with: Probe("suite")))
@MainActor struct StrictSuiteOverrideTests {
  @Test func aTestThatResolvesTheSuitesOverride() {
    #expect(TestedReader().value.name == "suite")
  }

  @Test func aTestThatNeverTouchesTheSuitesInjection() {
    #expect(LiveReader.overridden().name == "mock")
  }
}

final class Probe: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private let live = Injection<Probe>(strategy: .singleton, instance: Probe("live"))
private let tested = Injection<Probe>(strategy: .singleton, instance: Probe("live"), test: Probe("test"))

private final class LiveReader {
  @Instance(live) var value

  /// What a consumer of `live` reads under a scoped override.
  @MainActor static func overridden() -> Probe {
    live.withOverride(Probe("mock")) { LiveReader().value }
  }
}

private final class TestedReader {
  @Instance(tested) var value
}

/// What a strict world reported, from whichever thread resolved.
final class Reports: Sendable {
  private let lines = Locked<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}
