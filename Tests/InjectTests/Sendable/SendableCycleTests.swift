import Dispatch
import Foundation
import Inject
import Testing

private let cycleX: SendableInjection<Int> = SendableInjection(
  strategy: .singleton, instance: cycleY.resolve(), fileID: "App/Cycle.swift", line: 1)
private let cycleY: SendableInjection<Int> = SendableInjection(
  strategy: .onDemand, instance: cycleX.resolve(), fileID: "App/Cycle.swift", line: 2)
private let loopA = SendableInjection<Int>(strategy: .singleton, instance: 1, fileID: "App/Loop.swift", line: 1)
private let loopB = SendableInjection<Int>(strategy: .singleton, instance: 2, fileID: "App/Loop.swift", line: 2)

/// A build that needs itself stops the process with the chain.
///
/// On one thread or across threads: never a deadlock or a stack overflow. Each test runs in a
/// child process.
@Suite struct SendableCycleTests {
  @Test func aSlotAskedForOnTheThreadBuildingItIsACycle() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
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

  @Test func aBuildThatEntersItsOwnInjectionAgainIsACycle() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        let onDemand = Named("OnDemand")
        BuildChain.building(onDemand) {
          BuildChain.building(onDemand) {}
        }
      })
    #expect(result.standardErrorText.contains("Dependency cycle: OnDemand → OnDemand."))
  }

  /// Thread A builds X and needs Y while thread B builds Y and needs X: the second to wait sees
  /// the cycle.
  @Test(.timeLimit(.minutes(1))) func aCycleAcrossTwoThreadsStopsWithTheChain() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
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

  @Test func aCycleThroughTwoSendableInjectionsNamesTheChain() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: { _ = cycleX.resolve() })
    #expect(
      result.standardErrorText.contains(
        "Dependency cycle: SendableInjection<Int> (App/Cycle.swift:1) → SendableInjection<Int> (App/Cycle.swift:2) "
          + "→ SendableInjection<Int> (App/Cycle.swift:1). To fix this, break the cycle"))
  }

  @Test func aDelegationLoopStopsAtTheOverride() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        loopA.override(with: loopB)
        loopB.override(with: loopA)
      })
    #expect(
      result.standardErrorText.contains(
        "Cannot override SendableInjection<Int> (App/Loop.swift:2) with SendableInjection<Int> (App/Loop.swift:1): "
          + "it would resolve from itself (SendableInjection<Int> (App/Loop.swift:2) → SendableInjection<Int> "
          + "(App/Loop.swift:1) → SendableInjection<Int> (App/Loop.swift:2))"))
  }
}
