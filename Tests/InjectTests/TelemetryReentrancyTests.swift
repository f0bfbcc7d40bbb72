import Inject
import Testing

/// Regression tests for the crashes of a telemetry that runs code of the engine's: resolving
/// from its `deinit` while it is replaced, and resolving inside `record`.
///
/// The telemetry is one for the whole process, so these tests install it one at a time
/// (`.serialized`), and each is synchronous: it holds the main actor from installing to
/// uninstalling, so no test of another suite resolves on the main actor in between and no
/// other test's events reach its telemetry.
@Suite(.serialized) @MainActor struct TelemetryReentrancyTests {
  @Test func aTelemetryReleasedByInstallTelemetryNilMayResolve() {
    let (injection, factory) = makeInjection(.singleton)
    var resolvedInDeinit: (any Service)?
    installTelemetry(Callback(onDeinit: { resolvedInDeinit = Consumer(injection).service }))
    installTelemetry(nil)
    #expect(resolvedInDeinit?.name == "implementation #1")
    #expect(Consumer(injection).service === resolvedInDeinit)
    #expect(factory.calls == 1)
  }

  /// The old telemetry is released after the new one is in place: the new one hears what the
  /// old one's `deinit` does.
  @Test func aReplacedTelemetryIsReleasedAfterTheSwap() {
    let (injection, _) = makeInjection(.onDemand)
    let recorder = Recorder()
    installTelemetry(Callback(onDeinit: { _ = Consumer(injection).service }))
    installTelemetry(recorder)
    installTelemetry(nil)
    #expect(recorder.kinds == [.built(.published)])
  }

  @Test func aTelemetryThatResolvesInsideRecordBuiltBuildsNoSingletonTwice() {
    let (injection, factory) = makeInjection(.singleton)
    var resolvedInRecord: [any Service] = []
    installTelemetry(
      Callback(onRecord: { event in
        if event.kind == .built(.published) { resolvedInRecord.append(Consumer(injection).service) }
      }))
    defer { installTelemetry(nil) }
    let first = Consumer(injection).service
    #expect(factory.calls == 1)
    #expect(resolvedInRecord.count == 1 && resolvedInRecord[0] === first)
    #expect(Consumer(injection).service === first)
  }

  /// A telemetry whose `record` resolves, overrides and rolls back: the events that raises are
  /// not delivered to it, and the events after it returns are.
  @Test func eventsRaisedWhileATelemetryRecordsAreNotDeliveredToItAgain() {
    let (injection, _) = makeInjection(.onDemand)
    let (other, otherFactory) = makeInjection(.onDemand, name: "other")
    var kinds: [InjectionEvent.Kind] = []
    installTelemetry(
      Callback(onRecord: { event in
        kinds.append(event.kind)
        _ = Consumer(other).service
        other.override(with: ServiceImplementation("pushed in record"))
        other.rollbackOverride()
        _ = Consumer(injection).service
      }))
    defer { installTelemetry(nil) }
    _ = Consumer(injection).service
    _ = Consumer(injection).service
    #expect(kinds == [.built(.published), .built(.published)])
    #expect(otherFactory.calls == 2)
  }
}

/// A telemetry that runs closures when it records and when it is deinitialized.
private final class Callback: InjectionTelemetry {
  private let onRecord: @MainActor (InjectionEvent) -> Void
  private let onDeinit: @MainActor () -> Void

  init(
    onRecord: @escaping @MainActor (InjectionEvent) -> Void = { _ in }, onDeinit: @escaping @MainActor () -> Void = {}
  ) {
    self.onRecord = onRecord
    self.onDeinit = onDeinit
  }

  func record(_ event: InjectionEvent) { onRecord(event) }

  deinit {
    let body = onDeinit
    MainActor.assumeIsolated { body() }
  }
}

/// A telemetry that keeps the kinds of the events it records.
@MainActor
private final class Recorder: InjectionTelemetry {
  private(set) var kinds: [InjectionEvent.Kind] = []
  func record(_ event: InjectionEvent) { kinds.append(event.kind) }
}
