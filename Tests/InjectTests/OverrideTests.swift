import Inject
import InjectTesting
import Testing

@Suite(.misusesOnPurpose) @MainActor struct OverrideTests {
  @Test func overrideAppliesToNewConsumers() {
    let (injection, factory) = makeInjection(.shared)
    let mock = ServiceImplementation("mock")
    injection.override(with: mock)
    #expect(Consumer(injection).service === mock)
    #expect(factory.calls == 0, "a plain replacement never builds the overridden implementation")
    #expect(injection.overrideCount == 1)
  }

  @Test func rollbackPopsExactlyOneLayer() {
    let (injection, _) = makeInjection(.singleton)
    let first = ServiceImplementation("first")
    let second = ServiceImplementation("second")
    injection.override(with: first)
    injection.override(with: second)
    #expect(Consumer(injection).service === second)
    injection.rollbackOverride()
    #expect(Consumer(injection).service === first, "restores the layer beneath, not the original")
    injection.rollbackOverride()
    #expect(Consumer(injection).service.name == "implementation #1")
  }

  @Test func rollbackAllOverridesRestoresThePublishedConfiguration() {
    let (injection, _) = makeInjection(.singleton)
    let original = Consumer(injection).service
    for index in 0..<3 {
      injection.override(with: ServiceImplementation("mock \(index)"))
    }
    injection.rollbackAllOverrides()
    #expect(injection.overrideCount == 0)
    #expect(Consumer(injection).service === original)
  }

  @Test func rollbackWithNothingToRollBackChangesNothing() {
    let (injection, factory) = makeInjection(.singleton)
    let original = Consumer(injection).service
    injection.rollbackOverride()
    injection.rollbackAllOverrides()
    #expect(Consumer(injection).service === original)
    #expect(factory.calls == 1)
  }

  /// No strategy keeps the published `.onDemand` (a new mock per consumer); `.singleton`
  /// builds one mock for all.
  @Test(arguments: [(nil, 2), (Strategy.singleton, 1)] as [(Strategy?, Int)])
  func overrideStrategyDefaultsToThePublishedOne(strategy: Strategy?, expectedBuilds: Int) {
    let (injection, _) = makeInjection(.onDemand)
    var builds = 0
    injection.override(
      with: {
        builds += 1
        return ServiceImplementation("mock \(builds)")
      }(), strategy: strategy)
    let first = Consumer(injection).service
    let second = Consumer(injection).service
    #expect((first === second) == (expectedBuilds == 1))
    #expect(builds == expectedBuilds)
  }

  @Test func closureReceivesANewInstanceFromTheFactoryBeneathNotItsCachedOne() {
    let (injection, factory) = makeInjection(.singleton)
    let original = Consumer(injection).service
    var received: [any Service] = []
    injection.override(
      with: { service in
        received.append(service)
        return service
      }, strategy: .onDemand)
    #expect(factory.calls == 1, "the closure does not run at override time")
    let overridden = Consumer(injection).service
    #expect(factory.calls == 2)
    #expect(overridden !== original)
    #expect(received.count == 1 && received[0] === overridden)
  }

  @Test func closureRunsOnlyWhenItsStrategyNeedsANewInstance() {
    let (injection, factory) = makeInjection(.onDemand)
    var runs = 0
    injection.override(
      with: { service in
        runs += 1
        return service
      }, strategy: .singleton)
    #expect(runs == 0)
    let first = Consumer(injection).service
    let second = Consumer(injection).service
    #expect(first === second)
    #expect(runs == 1)
    #expect(factory.calls == 1)
  }

  @Test func decoratorsCompose() {
    let (injection, _) = makeInjection(.onDemand)
    injection.override(with: { ServiceImplementation("A(\($0.name))") })
    injection.override(with: { ServiceImplementation("B(\($0.name))") })
    #expect(Consumer(injection).service.name == "B(A(implementation #1))")
    injection.rollbackOverride()
    #expect(Consumer(injection).service.name == "A(implementation #2)")
  }

  @Test func singletonOverrideKeepsItsInstanceUntilRollbackAndReleasesItThen() {
    let (injection, _) = makeInjection(.singleton)
    let original = Consumer(injection).service
    weak var weakMock: (any Service)?
    injection.override(with: ServiceImplementation("mock"), strategy: .singleton)
    do {
      let consumer = Consumer(injection)
      weakMock = consumer.service
    }
    #expect(weakMock != nil, "the override layer keeps its singleton")
    #expect(Consumer(injection).service === weakMock)
    injection.rollbackOverride()
    #expect(weakMock == nil, "rolling back released the mock")
    #expect(Consumer(injection).service === original, "the original singleton is the very same object")
  }

  @Test func sharedOverrideLayerHasItsOwnStorage() {
    let (injection, _) = makeInjection(.shared)
    let original = Consumer(injection).service
    injection.override(with: { ServiceImplementation("mock of \($0.name)") })
    let first = Consumer(injection)
    let second = Consumer(injection)
    #expect(first.service === second.service)
    #expect(first.service.name == "mock of implementation #2")
    injection.rollbackOverride()
    #expect(Consumer(injection).service === original, "the published layer kept its shared instance")
  }

  @Test func rollbackReleasesTheOverrideClosureAndWhatItCaptured() {
    let (injection, _) = makeInjection(.onDemand)
    weak var weakCaptured: ServiceImplementation?
    do {
      let captured = ServiceImplementation("captured")
      weakCaptured = captured
      injection.override(with: { _ in captured })
    }
    #expect(weakCaptured != nil)
    injection.rollbackOverride()
    #expect(weakCaptured == nil)
  }

  @Test func injectionLayerDelegatesWithTheOtherStrategyStorageAndOverrides() {
    let (injection, factory) = makeInjection(.singleton)
    let (local, localFactory) = makeInjection(.onDemand, name: "local")
    injection.override(with: local)
    let first = Consumer(injection).service
    let second = Consumer(injection).service
    #expect(first !== second, "uses the other injection's .onDemand strategy")
    #expect(localFactory.calls == 2)
    #expect(factory.calls == 0)
    let mock = ServiceImplementation("mock")
    local.override(with: mock, strategy: .singleton)
    #expect(Consumer(injection).service === mock, "sees the other injection's overrides")
    local.rollbackOverride()
    injection.rollbackOverride()
    #expect(Consumer(injection).service.name == "implementation #1")
  }

  @Test func injectionLayerSharesTheOtherInjectionsStoredInstance() {
    let (injection, _) = makeInjection(.onDemand)
    let (other, _) = makeInjection(.singleton, name: "other")
    let direct = Consumer(other).service
    injection.override(with: other)
    #expect(Consumer(injection).service === direct)
  }

  @Test func decoratorAboveAnInjectionLayerGetsANewInstanceFromTheOtherInjection() {
    let (injection, _) = makeInjection(.singleton)
    let (other, otherFactory) = makeInjection(.singleton, name: "other")
    let stored = Consumer(other).service
    injection.override(with: other)
    injection.override(with: { $0 }, strategy: .onDemand)
    let decorated = Consumer(injection).service
    #expect(decorated !== stored)
    #expect(otherFactory.calls == 2)
  }

  @Test func resolvedConsumersKeepTheirInstanceAcrossOverrideAndRollback() {
    let (injection, _) = makeInjection(.onDemand)
    let before = Consumer(injection)
    let original = before.service
    injection.override(with: ServiceImplementation("mock"))
    let during = Consumer(injection)
    #expect(during.service.name == "mock")
    injection.rollbackOverride()
    #expect(before.service === original)
    #expect(during.service.name == "mock")
  }

  @Test func factoryThatOverridesItsOwnInjectionWhileBuildingWorks() {
    let injection = Injection<any Service>(
      strategy: .singleton,
      instance: {
        // Pushing and popping while the bottom layer builds must not corrupt the stack.
        reentrant?.override(with: ServiceImplementation("pushed while building"))
        reentrant?.rollbackOverride()
        reentrant?.override(with: ServiceImplementation("left on top"))
        return ServiceImplementation("built")
      }())
    reentrant = injection
    defer { reentrant = nil }
    #expect(Consumer(injection).service.name == "built")
    #expect(injection.overrideCount == 1)
    #expect(Consumer(injection).service.name == "left on top")
    injection.rollbackOverride()
    #expect(Consumer(injection).service.name == "built")
  }
}

@MainActor private var reentrant: Injection<any Service>?
