import Inject
import TestSupport
import Testing

/// A factory that reads the injection it is building stops the process with the whole chain.
///
/// Directly or through other injections: a message beats a stack overflow. Each test runs in a
/// child process.
@Suite struct CycleTests {
  @Test(.timeLimit(.minutes(4))) func cycleThroughTwoInjectionsNamesTheChain() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run { _ = Consumer(cycleA).service }
      })
    let message = result.standardErrorText
    #expect(
      message.contains(
        "Dependency cycle: Injection<CycleA> (App/Cycle.swift:1) → Injection<CycleB> (App/Cycle.swift:2) "
          + "→ Injection<CycleA> (App/Cycle.swift:1). To fix this, break the cycle"))
  }

  @Test(.timeLimit(.minutes(4))) func factoryReadingItsOwnInjectionIsACycle() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run { _ = Consumer(selfReading).service }
      })
    let message = result.standardErrorText
    #expect(
      message.contains(
        "Dependency cycle: Injection<SelfReading> (App/Cycle.swift:3) → Injection<SelfReading> (App/Cycle.swift:3)"))
  }

  @Test(.timeLimit(.minutes(4))) func onDemandCycleIsCaughtOnTheFastPath() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run { _ = Consumer(onDemandCycle).service }
      })
    let message = result.standardErrorText
    #expect(
      message.contains("Dependency cycle: Injection<OnDemandCycle> (App/Cycle.swift:4) → Injection<OnDemandCycle>"))
  }

  @Test(.timeLimit(.minutes(4))) func aTelemetryThatResolvesWhatIsBeingBuiltIsNamedAndNotCalledACycle() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          installTelemetry(ResolvingOuter())
          _ = Consumer(outerInjection).service
        }
      })
    let message = result.standardErrorText
    #expect(
      message.contains(
        "The installed telemetry resolved Injection<Outer> (App/Cycle.swift:5) in record(_:) while it was being built.")
    )
    #expect(!message.contains("Dependency cycle"))
  }
  @Test(.timeLimit(.minutes(4))) func aCycleInWhatATelemetryResolvesIsNamedAsACycle() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          installTelemetry(ResolvingCycle())
          _ = Consumer(innerInjection).service
        }
      })
    let message = result.standardErrorText
    #expect(
      message.contains(
        "Dependency cycle: Injection<CycleA> (App/Cycle.swift:1) → Injection<CycleB> (App/Cycle.swift:2) "
          + "→ Injection<CycleA> (App/Cycle.swift:1)."))
    #expect(!message.contains("The installed telemetry resolved"))
  }
}

/// `outerInjection` reads `innerInjection` while it is built; the telemetry resolves
/// `outerInjection` when it hears that `innerInjection` built, while the outer one is still building.
private let outerInjection = Injection<Outer>(
  strategy: .singleton, instance: Outer(), fileID: "App/Cycle.swift", line: 5)
private let innerInjection = Injection<Inner>(
  strategy: .singleton, instance: Inner(), fileID: "App/Cycle.swift", line: 6)

@MainActor private final class Outer {
  @Instance(innerInjection) var inner
  init() { _ = inner }
}

private final class Inner: Sendable {}

private struct ResolvingOuter: InjectionTelemetry {
  func record(_ event: InjectionEvent) {
    if case .built = event.kind, "\(event)".contains("Injection<Inner>") {
      _ = Consumer(outerInjection).service
    }
  }
}

private let cycleA = Injection<CycleA>(strategy: .singleton, instance: CycleA(), fileID: "App/Cycle.swift", line: 1)
private let cycleB = Injection<CycleB>(strategy: .shared, instance: CycleB(), fileID: "App/Cycle.swift", line: 2)
private let selfReading = Injection<SelfReading>(
  strategy: .singleton, instance: SelfReading(), fileID: "App/Cycle.swift", line: 3)
private let onDemandCycle = Injection<OnDemandCycle>(
  strategy: .onDemand, instance: OnDemandCycle(), fileID: "App/Cycle.swift", line: 4)

/// Reads `cycleB` while it is built, whose instance reads `cycleA` while it is built.
@MainActor private final class CycleA {
  @Instance(cycleB) var b
  init() { _ = b }
}

@MainActor private final class CycleB {
  @Instance(cycleA) var a
  init() { _ = a }
}

@MainActor private final class SelfReading {
  @Instance(selfReading) var me
  init() { _ = me }
}

@MainActor private final class OnDemandCycle {
  @Instance(onDemandCycle) var next
  init() { _ = next }
}

/// A telemetry that resolves `cycleA`, whose factory closes a cycle through `cycleB`, when it
/// hears of anything else.
private struct ResolvingCycle: InjectionTelemetry {
  func record(_ event: InjectionEvent) {
    if case .built = event.kind, "\(event)".contains("Injection<Inner>") {
      _ = Consumer(cycleA).service
    }
  }
}
