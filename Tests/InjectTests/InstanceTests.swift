import Inject
import InjectTesting
import Testing

@Suite(.misusesOnPurpose) @MainActor struct InstanceTests {
  @Test func nothingIsBuiltBeforeTheFirstRead() {
    let (injection, factory) = makeInjection(.onDemand)
    let consumer = Consumer(injection)
    #expect(factory.calls == 0)
    _ = consumer.service
    #expect(factory.calls == 1)
  }

  @Test func consumerCreatedBeforeAnOverrideAndReadAfterGetsTheOverride() {
    let (injection, factory) = makeInjection(.singleton)
    let consumer = Consumer(injection)
    let mock = ServiceImplementation("mock")
    injection.override(with: mock)
    #expect(consumer.service === mock)
    #expect(factory.calls == 0)
  }

  @Test func resolvedConsumerKeepsItsInstanceWhenTheConfigurationChanges() {
    let (injection, _) = makeInjection(.shared)
    let consumer = Consumer(injection)
    let original = consumer.service
    injection.override(with: ServiceImplementation("mock"))
    #expect(consumer.service === original)
    #expect(Consumer(injection).service.name == "mock")
  }

  @Test func consumerHoldsItsInstanceStrongly() {
    let (injection, _) = makeInjection(.shared)
    weak var weakService: (any Service)?
    let consumer = Consumer(injection)
    weakService = consumer.service
    #expect(weakService != nil)
    _ = consumer
  }

  @Test func assigningReplacesTheInstanceForThatConsumerOnly() {
    let (injection, _) = makeInjection(.singleton)
    let consumer = Consumer(injection)
    let other = Consumer(injection)
    let local = ServiceImplementation("local")
    consumer.service = local
    #expect(consumer.service === local)
    #expect(other.service !== local)
    #expect(Consumer(injection).service === other.service)
  }

  @Test func theDeinitOfAReplacedInstanceReadsTheNewOne() {
    let (injection, _) = makeInjection(.onDemand)
    let consumer = Consumer(injection)
    var readDuringDeinit: String?
    consumer.service = DeinitProbe { readDuringDeinit = consumer.service.name }
    consumer.service = ServiceImplementation("new")
    #expect(readDuringDeinit == "new")
  }

  @Test func assigningBeforeTheFirstReadBuildsNothing() {
    let (injection, factory) = makeInjection(.onDemand)
    let consumer = Consumer(injection)
    consumer.service = ServiceImplementation("local")
    #expect(consumer.service.name == "local")
    #expect(factory.calls == 0)
  }

  @Test func resetDropsTheLocalValueAndResolvesAgain() {
    let (injection, factory) = makeInjection(.onDemand)
    let consumer = Consumer(injection)
    weak var weakLocal: ServiceImplementation?
    do {
      let local = ServiceImplementation("local")
      weakLocal = local
      consumer.service = local
    }
    consumer.$service.reset()
    #expect(weakLocal == nil, "reset releases the local value")
    #expect(consumer.service.name == "implementation #1")
    #expect(factory.calls == 1)
  }

  @Test func resetDropsTheResolvedValueSoTheCurrentConfigurationApplies() {
    let (injection, _) = makeInjection(.singleton)
    let consumer = Consumer(injection)
    let original = consumer.service
    let mock = ServiceImplementation("mock")
    injection.override(with: mock)
    #expect(consumer.service === original)
    consumer.$service.reset()
    #expect(consumer.service === mock)
  }

  @Test func everyKindOfConsumerResolvesTheSameSingleton() {
    let mainActorClass = MainActorConsumer()
    let nonisolatedClass = NonisolatedConsumer()
    let view = ViewConsumer()
    #expect(mainActorClass.service === nonisolatedClass.service)
    #expect(view.service === nonisolatedClass.service)
    #expect(view.service.name == "test singleton")
  }

  @Test func copiesOfAStructConsumerShareOneInstance() {
    let (injection, factory) = makeInjection(.onDemand)
    let view = GenericView(injection)
    let copy = view
    #expect(view.body == copy.body)
    #expect(factory.calls == 1)
    #expect(GenericView(injection).body != view.body)
  }

  @Test func structConsumerCanBeAssignedWithoutMutatingAccess() {
    let (injection, _) = makeInjection(.singleton)
    let view = GenericView(injection)
    view.service = ServiceImplementation("local")
    #expect(view.body == "local")
  }
}

private let testSingleton = Injection<any Service>(
  strategy: .singleton, instance: ServiceImplementation("test singleton"))

@MainActor
private final class MainActorConsumer {
  @Instance(testSingleton) var service
}

private final class NonisolatedConsumer {
  @Instance(testSingleton) var service
}

/// Shaped like a SwiftUI view: a struct read from a main-actor `body`.
private struct ViewConsumer {
  @Instance(testSingleton) var service
  @MainActor var body: String { service.name }
}

private struct GenericView {
  @Instance var service: any Service
  init(_ injection: Injection<any Service>) { _service = Instance(injection) }
  @MainActor var body: String { service.name }
}

/// A service that runs `onDeinit` when it is released.
private final class DeinitProbe: Service {
  let name = "probe"
  let onDeinit: @MainActor () -> Void

  init(onDeinit: @escaping @MainActor () -> Void) { self.onDeinit = onDeinit }

  deinit {
    let onDeinit = onDeinit
    // NB: the test releases every probe on the main actor, so its deinit runs there.
    MainActor.assumeIsolated { onDeinit() }
  }
}
