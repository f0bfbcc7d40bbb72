import Inject
import InjectTesting
import TestSupport
import Testing

private final class Probe: Sendable {}

/// A telemetry that keeps every event, on the main actor.
@MainActor private final class Recorder: InjectionTelemetry {
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

private final class ProbeConsumer {
  @SendableInstance var probe: Probe
  init(_ injection: SendableInjection<Probe>) {
    _probe = SendableInstance(injection, fileID: "App/Probe.swift", line: 3)
  }
}

/// The events of sendable injections.
///
/// The telemetry is one for the whole process: these tests install it one at a time and
/// synchronously on the main actor, as TelemetryTests do, and each reads only the events of its
/// own injection, published at a line of its own.
@Suite(.serialized, .misusesOnPurpose) @MainActor struct SendableTelemetryTests {
  @Test func resolutionsOverridesAndRollbacksAreRecordedWithTheirLocations() {
    let recorder = Recorder()
    let injection = SendableInjection<Probe>(
      strategy: .singleton, instance: Probe(), fileID: "Services/Probe.swift", line: 201)
    recorder.recording {
      _ = ProbeConsumer(injection).probe
      _ = ProbeConsumer(injection).probe
      withIsolatedInjections {
        injection.override(with: Probe(), fileID: "Tests/Setup.swift", line: 4)
        _ = ProbeConsumer(injection).probe
        injection.withOverride(Probe()) { _ = ProbeConsumer(injection).probe }
        injection.rollbackOverride(fileID: "Tests/Setup.swift", line: 9)
        injection.rollbackOverride(fileID: "Tests/Setup.swift", line: 10)
      }
      ProbeConsumer(injection).probe = Probe()
    }
    let events = recorder.events(of: "Services/Probe.swift:201")
    #expect(
      events.map(\.kind) == [
        .built(.published), .returnedFromStorage(.published), .overridePushed(depth: 1),
        .built(.testOverride(depth: 1)), .built(.scoped), .rolledBack(depth: 0), .nothingToRollBack,
        .localOverrideSet,
      ])
    #expect(events.first?.location.description == "App/Probe.swift:3")
    #expect(events.first?.injection == "SendableInjection<Probe>")
    #expect(events.map(\.location.description).contains("Tests/Setup.swift:10"))
  }

  /// Off the main actor, events reach the telemetry on the main actor, before anything the
  /// resolving task enqueues there afterwards.
  @Test(.timeLimit(.minutes(4))) func eventsOffTheMainActorReachTheTelemetryInOrder() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let recorder = await MainActor.run {
        let recorder = Recorder()
        installTelemetry(recorder)
        return recorder
      }
      let injection = SendableInjection<Probe>(
        strategy: .onDemand, instance: Probe(), fileID: "Services/Probe.swift", line: 202)
      await Task.detached {
        _ = injection.resolve()
        injection.override(with: Probe())
        _ = injection.resolve()
      }.value
      let events = await MainActor.run { recorder.events(of: "Services/Probe.swift:202") }
      let kinds = events.map(\.kind)
      let first = events[0].location
      precondition(
        kinds == [
          .built(.published), .staleOverride(firstResolvedAt: first), .globalOverrideInTest,
          .overridePushed(depth: 1), .built(.override(depth: 1)),
        ],
        "\(kinds)")
    }
  }
}
