import Inject
import InjectTesting
import Testing

@Suite(.misusesOnPurpose) @MainActor struct StrategyTests {
  @Test func singletonIsBuiltOnceAndSharedByEveryConsumer() {
    let (injection, factory) = makeInjection(.singleton)
    let first = Consumer(injection)
    let second = Consumer(injection)
    #expect(factory.calls == 0)
    #expect(first.service === second.service)
    #expect(factory.calls == 1)
  }

  @Test func singletonOutlivesEveryConsumer() {
    let (injection, factory) = makeInjection(.singleton)
    weak var weakService: (any Service)?
    do {
      let consumer = Consumer(injection)
      weakService = consumer.service
    }
    #expect(weakService != nil)
    let later = Consumer(injection)
    #expect(later.service === weakService)
    #expect(factory.calls == 1)
  }

  @Test func sharedIsOneInstanceWhileAnyConsumerHoldsIt() {
    let (injection, factory) = makeInjection(.shared)
    let first = Consumer(injection)
    let second = Consumer(injection)
    #expect(first.service === second.service)
    #expect(factory.calls == 1)
  }

  @Test func sharedInstanceIsReleasedAfterLastConsumer() {
    let (injection, factory) = makeInjection(.shared)
    weak var weakService: (any Service)?
    var first: Consumer? = Consumer(injection)
    var second: Consumer? = Consumer(injection)
    weakService = first?.service
    #expect(second?.service === weakService)
    first = nil
    #expect(weakService != nil, "the second consumer still holds it")
    second = nil
    #expect(weakService == nil)
    let third = Consumer(injection)
    #expect(third.service.name == "implementation #2")
    #expect(factory.calls == 2)
  }

  @Test func sharedInstanceHeldOutsideConsumersIsStillShared() {
    let (injection, factory) = makeInjection(.shared)
    var consumer: Consumer? = Consumer(injection)
    let heldElsewhere = consumer?.service
    consumer = nil
    let next = Consumer(injection)
    #expect(next.service === heldElsewhere)
    #expect(factory.calls == 1)
  }

  @Test func sharedValueThatCannotBeHeldWeaklyIsKeptLikeSingleton() {
    var builds = 0
    let injection = Injection<[Int]>(
      strategy: .shared,
      instance: {
        builds += 1
        return [builds]
      }())
    #expect(Consumer(injection).service == [1])
    #expect(Consumer(injection).service == [1])
    #expect(builds == 1)
  }

  @Test func onDemandBuildsANewInstanceForEveryConsumer() {
    let (injection, factory) = makeInjection(.onDemand)
    let first = Consumer(injection)
    let second = Consumer(injection)
    #expect(first.service !== second.service)
    #expect(factory.calls == 2)
  }

  @Test func onDemandInstanceIsReleasedWithItsConsumer() {
    let (injection, _) = makeInjection(.onDemand)
    weak var weakService: (any Service)?
    var consumer: Consumer? = Consumer(injection)
    weakService = consumer?.service
    #expect(weakService != nil)
    consumer = nil
    #expect(weakService == nil)
  }

  @Test func consumerKeepsItsInstanceAcrossReads() {
    for strategy in Strategy.allCases {
      let (injection, factory) = makeInjection(strategy)
      let consumer = Consumer(injection)
      let first = consumer.service
      #expect(consumer.service === first, "\(strategy)")
      #expect(factory.calls == 1, "\(strategy)")
    }
  }
}
