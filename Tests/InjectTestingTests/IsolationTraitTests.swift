import Inject
import InjectTesting
import Testing

/// Each test runs in its own world: what it builds is its own, and nothing leaks between them.
@Suite(.isolatedInjections)
@MainActor struct IsolationTraitTests {
  @Test func eachTestBuildsItsOwnSingleton() async throws {
    let first = Consumer().value
    try await Task.sleep(for: .milliseconds(2))
    #expect(Consumer().value === first)
    #expect(!Self.seen.contains { $0 === first }, "no other test saw this instance")
    Self.seen.append(first)
  }

  @Test func anotherTestBuildsAnotherSingleton() async throws {
    let first = Consumer().value
    try await Task.sleep(for: .milliseconds(2))
    #expect(Consumer().value === first)
    #expect(!Self.seen.contains { $0 === first }, "no other test saw this instance")
    Self.seen.append(first)
  }

  /// The singletons every test saw, held so that no address is reused.
  static var seen: [Counter] = []

  @Test(.isolatedInjections(reportingLeaks: true))
  func aTestThatLeavesNothingBehindReportsNothing() {
    #expect(Consumer().value === Consumer().value)
  }

  @Test func aMockCapturedByAGlobalIsReportedWithItsInjectionAndWhereItWasResolved() async {
    var reported: [String] = []
    await withIsolatedInjections(
      reportingLeaks: { leaks in reported = leaks.map(\.description) }, reportingUntested: nil,
      operation: {
        LeakyCache.captured.append(Consumer().value)
        _ = Consumer().value
      })
    #expect(reported.count == 1)
    #expect(reported.first?.contains("Injection<Counter>") == true)
    #expect(reported.first?.contains("InjectTestingTests/IsolationTraitTests.swift") == true)
    LeakyCache.captured.removeAll()
  }

  @Test func aLeakInsideANestedScopeIsReportedToo() async {
    var reported: [String] = []
    await withIsolatedInjections(
      reportingLeaks: { leaks in reported = leaks.map(\.description) }, reportingUntested: nil,
      operation: {
        counter.withOverride(Counter()) {
          LeakyCache.capturedInANestedScope.append(Consumer().value)
        }
      })
    #expect(reported.count == 1)
    LeakyCache.capturedInANestedScope.removeAll()
  }

  @Test func nothingIsReportedOnceTheWorldIsGone() async {
    var reported: [String]?
    weak var built: Counter?
    await withIsolatedInjections(
      reportingLeaks: { reported = $0.map(\.description) }, reportingUntested: nil,
      operation: { built = Consumer().value })
    #expect(reported == [])
    #expect(built == nil, "the world's singleton is released with the world")
  }
}

/// A global that captures what it is given: the leak the report catches.
@MainActor
private enum LeakyCache {
  static var captured: [Counter] = []
  /// Another test's, so that neither releases what the other captured.
  static var capturedInANestedScope: [Counter] = []
}

final class Counter: Sendable {}

private let counter = Injection<Counter>(strategy: .singleton, instance: Counter())

private final class Consumer {
  @Instance(counter) var value
}
