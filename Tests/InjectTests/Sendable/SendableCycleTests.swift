import Dispatch
import Foundation
import Inject
import TestSupport
import Testing

private let cycleX: SendableInjection<Int> = SendableInjection(
  strategy: .singleton, instance: cycleY.resolve(), fileID: "App/Cycle.swift", line: 1)
private let cycleY: SendableInjection<Int> = SendableInjection(
  strategy: .onDemand, instance: cycleX.resolve(), fileID: "App/Cycle.swift", line: 2)
// A sendable factory that reads a main-actor injection on the main actor, which reads the
// sendable one back: a cycle across kinds.
private let crossSendable: SendableInjection<Int> = SendableInjection(
  strategy: .singleton, instance: MainActor.assumeIsolated { crossMain.resolve() }, fileID: "App/Cross.swift", line: 1)
@MainActor private let crossMain: Injection<Int> = Injection(
  strategy: .singleton, instance: crossSendable.resolve(), fileID: "App/Cross.swift", line: 2)

/// A build that takes a second, and says when it starts.
private let slowBuildStarted = DispatchSemaphore(value: 0)
private let slowInjection = SendableInjection<Int>(
  strategy: .singleton,
  instance: {
    blockThread(for: 1, signallingFirst: slowBuildStarted)
    return 1
  }(), fileID: "App/Slow.swift", line: 7)

/// Says that a build started, then blocks its thread for `seconds`.
private func blockThread(for seconds: TimeInterval, signallingFirst started: DispatchSemaphore) {
  started.signal()
  Thread.sleep(forTimeInterval: seconds)
}

/// Prints each wait reported to standard output.
private struct PrintingWaits: InjectionTelemetry {
  func record(_ event: InjectionEvent) {
    if case .waitingForBuild = event.kind {
      print("telemetry: \(event)")
    }
  }
}

private let loopA = SendableInjection<Int>(strategy: .singleton, instance: 1, fileID: "App/Loop.swift", line: 1)
private let loopB = SendableInjection<Int>(strategy: .singleton, instance: 2, fileID: "App/Loop.swift", line: 2)

/// A build that needs itself stops the process with the chain.
///
/// On one thread or across threads: never a deadlock or a stack overflow. Each test runs in a
/// child process.
@Suite struct SendableCycleTests {
  @Test(.timeLimit(.minutes(4))) func aSlotAskedForOnTheThreadBuildingItIsACycle() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        let slot = SendableSlot<Int>()
        let outer = Named("Outer")
        _ = slot.instance(of: outer, strategy: .singleton) {
          BuildChain.building(outer) {
            BuildChain.building(Named("Inner")) {
              slot.instance(of: outer, strategy: .singleton) { 0 }
            }
          }
        }
      })
    #expect(
      result.standardErrorText.contains(
        "Dependency cycle: Outer → Inner → Outer. To fix this, break the cycle"))
  }

  @Test(.timeLimit(.minutes(4))) func aBuildThatEntersItsOwnInjectionAgainIsACycle() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        let onDemand = Named("OnDemand")
        BuildChain.building(onDemand) {
          BuildChain.building(onDemand) {}
        }
      })
    #expect(result.standardErrorText.contains("Dependency cycle: OnDemand → OnDemand."))
  }

  /// Thread A builds X and needs Y while thread B builds Y and needs X: the second to wait sees
  /// the cycle.
  @Test(.timeLimit(.minutes(4))) func aCycleAcrossTwoThreadsStopsWithTheChain() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        let (x, y) = (SendableSlot<Int>(), SendableSlot<Int>())
        let (xName, yName, wName) = (Named("X"), Named("Y"), Named("W"))
        let bothBuilding = DispatchGroup()
        bothBuilding.enter()
        bothBuilding.enter()
        onThreads(2) { thread in
          if thread == 0 {
            _ = x.instance(of: xName, strategy: .singleton) {
              BuildChain.building(xName) {
                bothBuilding.leave()
                bothBuilding.wait()
                return BuildChain.building(wName) {
                  y.instance(of: yName, strategy: .singleton) { 1 }
                }
              }
            }
          } else {
            _ = y.instance(of: yName, strategy: .singleton) {
              BuildChain.building(yName) {
                bothBuilding.leave()
                bothBuilding.wait()
                return x.instance(of: xName, strategy: .singleton) { 2 }
              }
            }
          }
        }
      })
    let message = result.standardErrorText
    #expect(
      message.contains("Dependency cycle: X → W → Y → X.") || message.contains("Dependency cycle: Y → X → W → Y."),
      "\(message)")
  }

  @Test(.timeLimit(.minutes(4))) func aCycleThroughTwoSendableInjectionsNamesTheChain() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        _ = cycleX.resolve()
      })
    #expect(
      result.standardErrorText.contains(
        "Dependency cycle: SendableInjection<Int> (App/Cycle.swift:1) → SendableInjection<Int> (App/Cycle.swift:2) "
          + "→ SendableInjection<Int> (App/Cycle.swift:1). To fix this, break the cycle"))
  }

  @Test(.timeLimit(.minutes(4))) func aDelegationLoopStopsAtTheOverride() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        loopA.override(with: loopB)
        loopB.override(with: loopA)
      })
    #expect(
      result.standardErrorText.contains(
        "Cannot override SendableInjection<Int> (App/Loop.swift:2) with SendableInjection<Int> (App/Loop.swift:1): "
          + "it would resolve from itself (SendableInjection<Int> (App/Loop.swift:2) → SendableInjection<Int> "
          + "(App/Loop.swift:1) → SendableInjection<Int> (App/Loop.swift:2))"))
  }

  /// Each kind keeps its own chain of builds: the message names the other kind's apart.
  @Test(.timeLimit(.minutes(4))) func aCycleFromASendableFactoryThroughAMainActorOneNamesBothInjections() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run { _ = crossSendable.resolve() }
      })
    #expect(
      result.standardErrorText.contains(
        "Dependency cycle: SendableInjection<Int> (App/Cross.swift:1) → SendableInjection<Int> (App/Cross.swift:1), "
          + "through the builds of main-actor injections in progress on this thread: Injection<Int> "
          + "(App/Cross.swift:2). To fix this, break the cycle"))
  }

  @Test(.timeLimit(.minutes(4))) func aCycleFromAMainActorFactoryThroughASendableOneNamesBothInjections() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run { _ = crossMain.resolve() }
      })
    #expect(
      result.standardErrorText.contains(
        "Dependency cycle: Injection<Int> (App/Cross.swift:2) → Injection<Int> (App/Cross.swift:2), "
          + "through the builds of sendable injections in progress on this thread: SendableInjection<Int> "
          + "(App/Cross.swift:1). To fix this, break the cycle"))
  }

  /// A resolution that waits for another thread's build longer than the report's delay is
  /// reported, naming both injections; then it goes on waiting, and finds the instance built.
  @Test(.timeLimit(.minutes(4))) func aLongWaitForAnotherThreadsBuildIsReported() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardOutputContent],
      performing: {
        ChildProcessBound.start()
        WaitGraph.reportAfter = 0.2
        await MainActor.run { installTelemetry(PrintingWaits()) }
        let builder = Thread { _ = slowInjection.resolve() }
        builder.start()
        slowBuildStarted.wait()
        let waited = await Task.detached { slowInjection.resolve() }.value
        // The report hops to the main actor: let it run.
        try await Task.sleep(for: .milliseconds(200))
        await MainActor.run { print("waited for \(waited)") }
      })
    let output = String(decoding: result.standardOutputContent, as: UTF8.self)
    #expect(
      output.contains(
        "telemetry: SendableInjection<Int> (App/Slow.swift:7): a resolution for InjectTests/SendableCycleTests.swift"),
      "\(output)")
    #expect(
      output.contains(
        "has waited 0.2 seconds for another thread's build of SendableInjection<Int> (App/Slow.swift:7), and goes on "
          + "waiting; that thread builds SendableInjection<Int> (App/Slow.swift:7)."),
      "\(output)")
    #expect(output.contains("waited for 1"))
  }
}

/// A build on the main thread whose factory blocks it, after saying so.
private let mainThreadBuildStarted = DispatchSemaphore(value: 0)
private let blockingOnMainThread = SendableInjection<Int>(
  strategy: .singleton,
  instance: {
    // Blocks the main actor, then ends the process before it is free: what the main actor
    // would deliver afterwards is never seen.
    blockThread(for: 3, signallingFirst: mainThreadBuildStarted)
    exit(0)
  }(), fileID: "App/Blocking.swift", line: 3)

@Suite struct MainThreadWaitReportTests {
  /// A wait for a build that blocks the main thread is reported while it blocks it, by the
  /// waiting thread: the report went through the main actor, and never came while the wait
  /// lasted. (Release builds show no warning, and the main actor's telemetry cannot record while
  /// it is blocked.)
  @Test(.timeLimit(.minutes(4))) func aWaitForABuildThatBlocksTheMainThreadIsReportedWhileItBlocks() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        WaitGraph.reportAfter = 0.2
        Thread {
          mainThreadBuildStarted.wait()
          _ = blockingOnMainThread.resolve()
        }.start()
        await MainActor.run { _ = blockingOnMainThread.resolve() }
      })
    #if DEBUG && !canImport(OSLog)
    #expect(
      result.standardErrorText.contains(
        "has waited 0.2 seconds for another thread's build of SendableInjection<Int> (App/Blocking.swift:3)"),
      "\(result.standardErrorText)")
    #endif
  }
}
