import Inject
import InjectTesting
import Testing

/// Inside a test world, `override(with:)` and the rollbacks act on the test's own stack: the
/// test and the tasks and scopes inside it see it, no other test and the global world never
/// do, and it goes with the test's world.
@Suite @MainActor struct TestWorldOverrideTests {
  @Test func anOverridePushedInATestWorldStaysInIt() {
    let graph = Graph()
    let mock = MockAPI("test's")
    withIsolatedInjections {
      graph.api.override(with: mock)
      #expect(graph.api.overrideCount == 1)
      #expect(Screen(graph).repository.api === mock, "through the whole graph")
      withIsolatedInjections {
        #expect(Consumer(graph.api).service === mock, "a world inside the test shares its stack")
      }
    }
    #expect(graph.api.overrideCount == 0, "the global stack never saw it")
    #expect(Screen(graph).repository.api.name == "live")
  }

  @Test func whatATestLeavesPushedGoesWithItsWorld() {
    let graph = Graph()
    weak var weakMock: MockAPI?
    weak var weakRepository: Repository?
    withIsolatedInjections {
      let mock = MockAPI("left pushed")
      weakMock = mock
      graph.api.override(with: mock)
      weakRepository = Screen(graph).repository
    }
    #expect(weakMock == nil)
    #expect(weakRepository == nil)
    #expect(Consumer(graph.api).service.name == "live")
  }

  @Test func rollingBackMoreThanTheTestPushedWarnsAndLeavesTheGlobalStackAlone() {
    let (injection, _) = makeInjection(.singleton)
    let global = ServiceImplementation("global")
    let ((), warnings) = withDebugWarningsCaptured {
      injection.override(with: global)
      withIsolatedInjections {
        injection.override(with: ServiceImplementation("test's"))
        injection.rollbackOverride()
        injection.rollbackOverride(fileID: "Tests/Teardown.swift", line: 7)
        #expect(Consumer(injection).service === global, "the global override still applies beneath")
      }
    }
    #expect(injection.overrideCount == 1)
    #expect(Consumer(injection).service === global)
    #expect(warnings.filter { $0.contains("rollback at Tests/Teardown.swift:7") }.count == expectedWarningCount(1))
    injection.rollbackOverride()
  }

  @Test func rollbackInATestWorldIsExact() {
    let graph = Graph()
    withIsolatedInjections {
      let before = Screen(graph).repository
      let mock = MockAPI("mock")
      graph.api.override(with: mock)
      #expect(Screen(graph).repository === before, "stored before the push: kept")
      graph.api.rollbackOverride()
      let live = Screen(graph).repository
      #expect(live === before)
      graph.api.override(with: mock)
      let built = withIsolatedInjections { Screen(graph).repository }
      #expect(built.api === mock, "a world inside the test sees the push")
      graph.api.rollbackOverride()
      #expect(Screen(graph).repository === before)
    }
  }

  @Test func dependentsBuiltWhileATestOverrideWasPushedAreDroppedByItsRollback() {
    let graph = Graph()
    withIsolatedInjections {
      graph.api.override(with: MockAPI("mock"))
      let withMock = Screen(graph).repository
      #expect(withMock.api.name == "mock")
      graph.api.rollbackOverride()
      let rebuilt = Screen(graph).repository
      #expect(rebuilt !== withMock, "built while the override was pushed: dropped")
      #expect(rebuilt.api.name == "live")
    }
  }

  @Test func aScopeInsideTheTestSeesItsPushesAndItsOwnOverrideWins() {
    let (injection, _) = makeInjection(.singleton)
    withIsolatedInjections {
      injection.override(with: ServiceImplementation("pushed"))
      injection.withOverride({ ServiceImplementation("scoped(\($0.name))") }, strategy: .onDemand) {
        #expect(Consumer(injection).service.name == "scoped(pushed)", "a scoped decorator decorates the push")
      }
      injection.withOverride(ServiceImplementation("scoped")) {
        #expect(Consumer(injection).service.name == "scoped")
        injection.override(with: ServiceImplementation("pushed in the scope"))
        #expect(Consumer(injection).service.name == "scoped", "the scope's own override wins")
      }
      #expect(Consumer(injection).service.name == "pushed in the scope", "the push stays in the test")
      #expect(injection.overrideCount == 2)
    }
  }

  @Test func aTestOverrideCanDelegateToAnotherInjection() {
    let (first, _) = makeInjection(.onDemand, name: "first")
    let (second, factory) = makeInjection(.singleton, name: "second")
    withIsolatedInjections {
      first.override(with: second)
      let delegated = Consumer(first).service
      #expect(delegated === Consumer(second).service)
      #expect(factory.calls == 1)
      first.rollbackOverride()
      #expect(Consumer(first).service.name == "first #1")
    }
    #expect(Consumer(first).service.name == "first #2")
  }

  @Test(.timeLimit(.minutes(4))) func aTaskThatOutlivesTheTestKeepsResolvingInItsWorld() async {
    let graph = Graph()
    let gate = Gate()
    let mock = MockAPI("test's")
    let task = withIsolatedInjections {
      graph.api.override(with: mock)
      return Task { @MainActor in
        await gate.wait()
        return Screen(graph).repository.api
      }
    }
    #expect(Consumer(graph.api).service.name == "live")
    gate.open()
    #expect(await task.value === mock)
  }
}

/// Tests running in parallel, each pushing and rolling back on one injection that all share,
/// each seeing only its own, through a three-level graph.
@Suite @MainActor struct ParallelTestWorldOverrideTests {
  static let graph = Graph()

  @Test(.isolatedInjections, arguments: 0..<64)
  func eachTestSeesOnlyWhatItPushed(index: Int) async {
    let graph = Self.graph
    let mock = MockAPI("test \(index)")
    graph.api.override(with: mock)
    await Task.yield()
    #expect(Screen(graph).repository.api === mock)
    await Task.yield()
    #expect(Consumer(graph.api).service === mock)
    graph.api.rollbackOverride()
    #expect(Consumer(graph.api).service.name == "live")
    #expect(graph.api.overrideCount == 0)
  }
}
