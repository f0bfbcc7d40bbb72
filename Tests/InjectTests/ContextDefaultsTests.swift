import Inject
import Testing

/// Test values beside the live one: test worlds resolve them by default, explicit overrides
/// win, and nothing changes outside test worlds.
@Suite @MainActor struct ContextDefaultsTests {
  @Test func aTestWorldResolvesTheTestValueUnderTheInjectionsStrategy() {
    let (injection, counts) = published(.singleton)
    let (inside, again) = withIsolatedInjections { (Consumer(injection).service, Consumer(injection).service) }
    #expect(inside.name == "test #1")
    #expect(again === inside, "the test value keeps the injection's strategy")
    #expect(counts.live.calls == 0, "the live implementation is never built in the test world")
  }

  /// In a test process, the test-process warning names the first live build (once per
  /// injection); elsewhere nothing would be shown.
  @Test func outsideTestWorldsTheLiveInstanceResolves() {
    let (injection, counts) = published(.onDemand)
    let (live, warnings) = withDebugWarningsCaptured {
      Consumer(injection, fileID: "App/Screen.swift", line: 3).service.name
    }
    #expect(live == "live #1")
    #expect(warnings.count == expectedWarningCount(1))
    #expect(
      warnings.allSatisfy { $0.contains("built its live instance for App/Screen.swift:3 outside every test world") })
    let decorated = withDebugWarningsSilenced {
      injection.withOverride({ $0 }, operation: { Consumer(injection).service.name })
    }
    #expect(decorated == "live #2")
    #expect(counts.test.calls == 0)
  }

  @Test func explicitOverridesWinOverTheTestValue() {
    let (injection, _) = published(.singleton)
    let scoped = ServiceImplementation("scoped")
    let global = ServiceImplementation("global")
    withIsolatedInjections {
      #expect(injection.withOverride(scoped) { Consumer(injection).service } === scoped)
      injection.override(with: global)
      #expect(Consumer(injection).service === global)
      injection.rollbackOverride()
      #expect(Consumer(injection).service.name == "test #1")
    }
  }

  @Test func aScopedDecoratorInATestWorldDecoratesTheTestValue() {
    let (injection, _) = published(.onDemand)
    let name = withIsolatedInjections {
      injection.withOverride({ ServiceImplementation("logged(\($0.name))") }) { Consumer(injection).service.name }
    }
    #expect(name == "logged(test #1)")
  }

  @Test func anInjectionWithoutATestValueResolvesItsLiveInstanceInATestWorld() {
    let (injection, factory) = makeInjection(.singleton)
    let inside = withIsolatedInjections { Consumer(injection).service }
    #expect(inside.name == "implementation #1")
    #expect(factory.calls == 1)
  }

  @Test(.timeLimit(.minutes(4))) func childTasksOfATestWorldResolveTheTestValue() async {
    let (injection, _) = published(.shared)
    let name = await withIsolatedInjections {
      await Task { @MainActor in Consumer(injection).service.name }.value
    }
    #expect(name == "test #1")
  }
}

/// The factories of an injection published with a test value, each counting its calls.
@MainActor
private struct Counts {
  let live = Factory("live")
  let test = Factory("test")
}

/// An injection whose live and test values come from their own counting factories.
@MainActor
private func published(_ strategy: Strategy) -> (Injection<any Service>, Counts) {
  let counts = Counts()
  return (Injection<any Service>(strategy: strategy, instance: counts.live.make(), test: counts.test.make()), counts)
}
