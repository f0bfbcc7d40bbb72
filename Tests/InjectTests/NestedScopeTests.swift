import Inject
import InjectTesting
import Testing

/// A nested scope is a fresh world in which the enclosing scopes' overrides still apply, and
/// every scope reads the global configuration live.
@Suite(.misusesOnPurpose) @MainActor struct NestedScopeTests {
  @Test func aNestedScopeIsAFreshWorldWhereTheEnclosingOverrideStillApplies() {
    let graph = Graph()
    graph.api.withOverride(MockAPI("outer")) {
      let outer = Screen(graph).repository
      #expect(outer.api.name == "outer")
      let nested = withIsolatedInjections { Screen(graph).repository }
      #expect(nested !== outer, "the nested world builds its own repository")
      #expect(nested.session !== outer.session)
      #expect(nested.api.name == "outer", "with the enclosing override")
      #expect(Screen(graph).repository === outer, "the enclosing world kept its own")
    }
    #expect(Screen(graph).repository.api.name == "live")
    #expect(graph.builds.repository == 3)
  }

  @Test func aNestedOverrideOfAnotherLevelSeesTheEnclosingOverrideBeneathIt() {
    let graph = Graph()
    graph.api.withOverride(MockAPI("outer")) {
      graph.session.withOverride(Session(api: Consumer(graph.api).service)) {
        let repository = Screen(graph).repository
        #expect(repository.api.name == "outer")
        #expect(repository.session === Consumer(graph.session).service)
        #expect(repository.api === Consumer(graph.api).service)
      }
    }
  }

  @Test func aScopedDecoratorDecoratesTheLiveLayerBeneathItAndAGlobalPushApplies() {
    let (injection, _) = makeInjection(.singleton)
    let outer: @MainActor (any Service) -> any Service = { ServiceImplementation("decorated(\($0.name))") }
    let inner: @MainActor (any Service) -> any Service = { ServiceImplementation("inner(\($0.name))") }
    injection.withOverride(outer, strategy: .onDemand) {
      #expect(Consumer(injection).service.name == "decorated(implementation #1)")
      injection.override(with: ServiceImplementation("global"))
      #expect(Consumer(injection).service.name == "decorated(global)")
      injection.withOverride(inner, strategy: .onDemand) {
        #expect(Consumer(injection).service.name == "inner(decorated(global))")
      }
      injection.rollbackOverride()
      #expect(Consumer(injection).service.name == "decorated(implementation #2)")
    }
    #expect(Consumer(injection).service.name == "implementation #3", "the scope stored nothing globally")
  }

  @Test func aGlobalPushDuringAScopeAppliesToItAndItsRollbackRestoresTheScopesOwn() {
    let (injection, factory) = makeInjection(.singleton)
    let mock = ServiceImplementation("global")
    withIsolatedInjections {
      let first = Consumer(injection).service
      injection.override(with: mock)
      #expect(Consumer(injection).service === mock)
      injection.rollbackOverride()
      #expect(Consumer(injection).service === first, "the scope's instance was stored before the push")
    }
    #expect(Consumer(injection).service.name == "implementation #2")
    #expect(factory.calls == 2)
  }

  /// The worlds of scopes outside tests take no part in global rollback: what a scope built
  /// while a global override was in place stays in the scope.
  @Test func aGlobalRollbackLeavesWhatAScopeStored() {
    let graph = Graph()
    let (unrelated, _) = makeInjection(.singleton)
    unrelated.withOverride(ServiceImplementation("unrelated")) {
      graph.api.override(with: MockAPI("global"))
      let repository = Screen(graph).repository
      graph.api.rollbackOverride()
      #expect(Screen(graph).repository === repository)
      #expect(Consumer(graph.api).service.name == "live")
    }
    #expect(Screen(graph).repository.api.name == "live")
  }
}
