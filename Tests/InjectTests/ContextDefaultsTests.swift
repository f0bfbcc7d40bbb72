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

  @Test func outsideTestWorldsTheLiveInstanceResolves() {
    let (injection, counts) = published(.onDemand)
    #expect(Consumer(injection).service.name == "live #1")
    let decorated = injection.withOverride({ $0 }, operation: { Consumer(injection).service.name })
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

  @Test func childTasksOfATestWorldResolveTheTestValue() async {
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
