import Dispatch
import Foundation
import Inject
import Testing

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
}
