import Inject
import InjectTesting
import Testing

/// The telemetry is one for the whole process, so these tests install it one at a time
/// (`.serialized`); each reads only the events of its own injection, which it publishes at a
/// line of its own, because tests of other suites may resolve while it is installed.
@Suite(.serialized, .misusesOnPurpose) @MainActor struct TelemetryTests {
  @Test func resolutionsAreRecordedWithBothLocations() {
    let recorder = Recorder()
    let injection = published(.singleton, atLine: 101)
    recorder.recording {
      _ = Consumer(injection, fileID: "App/Screen.swift", line: 8).service
      _ = Consumer(injection, fileID: "App/Other.swift", line: 20).service
    }
    let events = recorder.events(of: "Services/Service.swift:101")
    #expect(events.map(\.kind) == [.built(.published), .returnedFromStorage(.published)])
    #expect(events.map(\.location.description) == ["App/Screen.swift:8", "App/Other.swift:20"])
    #expect(events.allSatisfy { $0.injection == "Injection<Service>" })
    #expect(
      events.first?.description
        == "Injection<Service> (Services/Service.swift:101): built by the published layer, for App/Screen.swift:8")
  }

  @Test func overrideLayersAndScopesAreNamed() throws {
    let recorder = Recorder()
    let injection = published(.onDemand, atLine: 102)
    recorder.recording {
      injection.override(with: ServiceImplementation("mock"), fileID: "Tests/Setup.swift", line: 3)
      _ = Consumer(injection).service
      injection.withOverride(ServiceImplementation("scoped")) { _ = Consumer(injection).service }
      injection.rollbackOverride(fileID: "Tests/Setup.swift", line: 9)
      injection.rollbackOverride(fileID: "Tests/Setup.swift", line: 10)
    }
    let events = recorder.events(of: "Services/Service.swift:102")
    try #require(
      events.map(\.kind) == [
        .globalOverrideInTest, .overridePushed(depth: 1), .built(.override(depth: 1)), .built(.scoped),
        .rolledBack(depth: 0), .nothingToRollBack,
      ])
    #expect(events[1].location == CodeLocation(fileID: "Tests/Setup.swift", line: 3))
    #expect(events[5].description.hasSuffix("rollback at Tests/Setup.swift:10 with no override to roll back"))
  }

  @Test func localOverrideIsRecorded() {
    let recorder = Recorder()
    let injection = published(.singleton, atLine: 103)
    recorder.recording {
      Consumer(injection, fileID: "App/Screen.swift", line: 8).service = ServiceImplementation("local")
    }
    let events = recorder.events(of: "Services/Service.swift:103")
    #expect(events.map(\.kind) == [.localOverrideSet])
    #expect(events.first?.location == CodeLocation(fileID: "App/Screen.swift", line: 8))
  }

  @Test func valueKeptStronglyUnderSharedIsRecorded() {
    let recorder = Recorder()
    let injection = Injection<Int>(strategy: .shared, instance: 42, fileID: "Services/Numbers.swift", line: 104)
    recorder.recording { _ = Consumer(injection).service }
    #expect(
      recorder.events(of: "Services/Numbers.swift:104").map(\.kind) == [.built(.published), .keptStrongly(.published)])
  }

  @Test func overridePushedAfterResolutionIsReportedAsStale() {
    let recorder = Recorder()
    let injection = published(.shared, atLine: 105)
    recorder.recording {
      injection.override(with: ServiceImplementation("early"), fileID: "Tests/Setup.swift", line: 1)
      let consumer = Consumer(injection, fileID: "App/Screen.swift", line: 8)
      _ = consumer.service
      injection.override(with: ServiceImplementation("late"), fileID: "Tests/Setup.swift", line: 30)
    }
    let stale = recorder.events(of: "Services/Service.swift:105").filter {
      if case .staleOverride = $0.kind { true } else { false }
    }
    #expect(stale.map(\.kind) == [.staleOverride(firstResolvedAt: CodeLocation(fileID: "App/Screen.swift", line: 8))])
    #expect(
      stale.first?.description
        == "Injection<Service> (Services/Service.swift:105): override pushed at Tests/Setup.swift:30 after the "
        + "injection was first resolved at App/Screen.swift:8; consumers that resolved before keep their instance")
  }

  /// The 1.x set-up and tear-down habit, or a demo toggling a mock: each push shadows only the
  /// published layer, which nothing resolved from.
  @Test func pushResolveRollBackRepeatedIsNeverStale() {
    let recorder = Recorder()
    let injection = published(.singleton, atLine: 109)
    recorder.recording {
      for round in 1...3 {
        injection.override(with: ServiceImplementation("mock \(round)"), fileID: "Tests/Setup.swift", line: 1)
        #expect(Consumer(injection, fileID: "App/Screen.swift", line: 8).service.name == "mock \(round)")
        injection.rollbackOverride()
      }
    }
    let events = recorder.events(of: "Services/Service.swift:109")
    #expect(events.filter { $0.kind == .overridePushed(depth: 1) }.count == 3)
    #expect(events.allSatisfy { !$0.kind.isStale })
  }

  /// A push above a layer that a consumer still on the stack resolved from is late, and names
  /// that consumer, even after the pushes above that layer came and went.
  @Test func pushAboveALayerResolvedFromIsStaleUntilThatLayerIsPopped() {
    let recorder = Recorder()
    let injection = published(.onDemand, atLine: 110)
    recorder.recording {
      injection.override(with: ServiceImplementation("first"), fileID: "Tests/Setup.swift", line: 1)
      _ = Consumer(injection, fileID: "App/First.swift", line: 1).service
      injection.override(with: ServiceImplementation("second"), fileID: "Tests/Setup.swift", line: 2)
      _ = Consumer(injection, fileID: "App/Second.swift", line: 2).service
      injection.rollbackOverride()
      injection.override(with: ServiceImplementation("third"), fileID: "Tests/Setup.swift", line: 3)
      injection.rollbackAllOverrides()
      injection.override(with: ServiceImplementation("fourth"), fileID: "Tests/Setup.swift", line: 4)
    }
    let stale = recorder.events(of: "Services/Service.swift:110").filter(\.kind.isStale)
    #expect(
      stale.map(\.location) == [
        CodeLocation(fileID: "Tests/Setup.swift", line: 2), CodeLocation(fileID: "Tests/Setup.swift", line: 3),
      ], "the first layer, which App/First.swift resolved from, was popped before the fourth push")
    #expect(
      stale.map(\.kind).allSatisfy {
        $0 == .staleOverride(firstResolvedAt: CodeLocation(fileID: "App/First.swift", line: 1))
      })
  }

  @Test func firstResolutionThroughADecoratorNamesTheConsumer() {
    let recorder = Recorder()
    let injection = published(.singleton, atLine: 107)
    let other = Injection<any Service>(
      strategy: .singleton, instance: ServiceImplementation("b"), fileID: "Services/Other.swift", line: 108)
    recorder.recording {
      injection.override(with: other)
      injection.override(with: { LoggingDecorator($0) })
      _ = Consumer(injection, fileID: "App/Screen.swift", line: 8).service
      other.override(with: ServiceImplementation("late"), fileID: "Tests/Setup.swift", line: 40)
    }
    let stale = recorder.events(of: "Services/Other.swift:108").map(\.kind).filter {
      if case .staleOverride = $0 { true } else { false }
    }
    #expect(stale == [.staleOverride(firstResolvedAt: CodeLocation(fileID: "App/Screen.swift", line: 8))])
  }

  @Test func withoutTelemetryNothingIsRecorded() {
    let recorder = Recorder()
    let injection = published(.singleton, atLine: 106)
    recorder.recording {}
    _ = Consumer(injection).service
    injection.rollbackOverride()
    #expect(recorder.events(of: "Services/Service.swift:106").isEmpty)
  }
}

/// An injection published at `Services/Service.swift:<line>`: each test uses a line of its own,
/// so that it can tell its events apart.
@MainActor
private func published(_ strategy: Strategy, atLine line: UInt) -> Injection<any Service> {
  Injection<any Service>(
    strategy: strategy, instance: ServiceImplementation("a"), fileID: "Services/Service.swift", line: line)
}

/// Wraps another service, as a decorating override does.
private final class LoggingDecorator: Service {
  let wrapped: any Service
  init(_ wrapped: any Service) { self.wrapped = wrapped }
  var name: String { "logged \(wrapped.name)" }
}

/// A telemetry that keeps every event, installed only while `recording` runs.
@MainActor
private final class Recorder: InjectionTelemetry {
  private var recorded: [InjectionEvent] = []

  func record(_ event: InjectionEvent) { recorded.append(event) }

  func recording(_ body: () -> Void) {
    installTelemetry(self)
    defer { installTelemetry(nil) }
    body()
  }

  /// The events of the injection published at `location`.
  func events(of location: String) -> [InjectionEvent] {
    recorded.filter { $0.publishedAt.description == location }
  }
}

extension InjectionEvent.Kind {
  fileprivate var isStale: Bool {
    if case .staleOverride = self { true } else { false }
  }
}
