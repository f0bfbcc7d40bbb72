import Inject
import InjectTesting
import Synchronization
import TestSupport
import Testing

/// Many consumers and deep override stacks, checked for what stays alive afterwards.
@Suite(.misusesOnPurpose) @MainActor struct StressTests {
  /// A million at full scale (`INJECT_STRESS=1`), where resident memory is bounded too.
  static let consumers = StressScale.count(full: 1_000_000, quick: 20_000)

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  @Test(arguments: Strategy.allCases)
  func manyConsumersLeaveOnlyWhatTheStrategyPromises(strategy: Strategy) {
    let live = LiveCount()
    let injection = Injection<Counted>(strategy: strategy, instance: Counted(live))
    let residentBefore = residentMegabytes()
    for _ in 0..<Self.consumers {
      let consumer = Consumer(injection)
      _ = consumer.service
    }
    let expected = strategy == .singleton ? 1 : 0
    #expect(live.value == expected)
    #expect(live.created == (strategy == .onDemand ? Self.consumers : expected == 1 ? 1 : Self.consumers))
    if StressScale.isFull, let residentBefore, let residentAfter = residentMegabytes() {
      #expect(residentAfter - residentBefore < 64, "resident memory grew by \(residentAfter - residentBefore) MB")
    }
  }

  /// A coordinator whose initializer makes a child model it does not read, stored in a scope's
  /// world: the child remembers the world's configuration, never its storage, so each scope's
  /// world is released as it ends, and memory stays flat however many scopes run.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  @Test func scopesWhoseInstanceHoldsAnUnreadConsumerAreReleasedAsTheyEnd() {
    let scopes = StressScale.count(full: 100_000, quick: 1_000)
    let live = LiveCount()
    let client = Injection<Counted>(strategy: .singleton, instance: Counted(live))
    let coordinator = Injection<Coordinator>(strategy: .singleton, instance: Coordinator(child: Consumer(client)))
    let residentBefore = residentMegabytes()
    var last: Coordinator?
    for _ in 0..<scopes {
      last = withIsolatedInjections { coordinator.resolve() }
    }
    #expect(live.value == 0, "no scope's client was ever built: the children were never read")
    _ = last?.child.service
    #expect(live.value == 1, "the last child, read after its scope, built its world's client")
    last = nil
    #expect(live.value == 0)
    if StressScale.isFull, let residentBefore, let residentAfter = residentMegabytes() {
      #expect(residentAfter - residentBefore < 5, "resident memory grew by \(residentAfter - residentBefore) MB")
    }
  }

  @Test func tenThousandInstanceOverridesArePushedAndPoppedWithNothingRetained() {
    let (injection, _) = makeInjection(.singleton)
    weak var weakMock: ServiceImplementation?
    do {
      let mock = ServiceImplementation("mock")
      weakMock = mock
      for _ in 0..<10_000 {
        injection.override(with: mock, strategy: .singleton)
      }
      #expect(Consumer(injection).service === mock)
    }
    for _ in 0..<10_000 {
      injection.rollbackOverride()
    }
    #expect(injection.overrideCount == 0)
    #expect(weakMock == nil)
  }

  /// Rolled back or released with their injection, any number of decorators takes constant
  /// stack: a 1 MB stack (an iOS main thread's) overflowed at 10,000 when they were released
  /// one inside another.
  static let decorators = 100_000

  @Test func decoratorsAreResolvedThroughAndRolledBackWithoutDeepRecursion() {
    let (injection, factory) = makeInjection(.singleton)
    weak var weakCaptured: ServiceImplementation?
    do {
      let captured = ServiceImplementation("captured")
      weakCaptured = captured
      injection.override(with: { _ in captured }, strategy: .onDemand)
      for _ in 1..<Self.decorators {
        injection.override(with: { $0 }, strategy: .onDemand)
      }
    }
    #expect(Consumer(injection).service === weakCaptured)
    #expect(factory.calls == 1, "the build walked down every decorator to the published layer")
    injection.rollbackAllOverrides()
    #expect(weakCaptured == nil)
    #expect(injection.overrideCount == 0)
    #expect(Consumer(injection).service.name == "implementation #2")
  }

  @Test func decoratorsAreReleasedWithTheirInjectionWithoutDeepRecursion() {
    weak var weakCaptured: ServiceImplementation?
    weak var weakInjection: Injection<any Service>?
    do {
      let (injection, _) = makeInjection(.singleton)
      weakInjection = injection
      let captured = ServiceImplementation("captured")
      weakCaptured = captured
      for _ in 0..<Self.decorators {
        injection.override(with: { _ in captured })
      }
      _ = Consumer(injection).service
    }
    #expect(weakInjection == nil)
    #expect(weakCaptured == nil)
  }
}

/// A chain of injections, each overridden with the next, is resolved through and released
/// with constant stack: a 1 MB stack overflowed at 3,000 when each delegation recursed.
@Suite(.misusesOnPurpose) @MainActor struct DelegationChainTests {
  /// 100,000 at full scale (`INJECT_STRESS=1`, as in the release run, whose frames are
  /// smaller); 30,000 otherwise, in a debug build on Linux's 8 MB stack, where a release that
  /// recursed (`FlatRelease` releasing at once) overflowed it at 5,000 already, and where 3,000
  /// levels to the megabyte fill 8 MB at 24,000.
  static let length = StressScale.count(full: 100_000, quick: 30_000)

  @Test func aLongChainOfDelegationsIsResolvedThroughAndReleasedWithoutDeepRecursion() {
    weak var weakLast: Injection<any Service>?
    weak var weakHead: Injection<any Service>?
    do {
      var chain = (1..<Self.length).map { _ in
        Injection<any Service>(strategy: .onDemand, instance: ServiceImplementation("unused"))
      }
      chain.append(Injection<any Service>(strategy: .onDemand, instance: ServiceImplementation("last")))
      for (injection, next) in zip(chain, chain.dropFirst()) {
        injection.override(with: next)
      }
      let head = chain[0]
      (weakHead, weakLast) = (head, chain[chain.count - 1])
      chain = []
      #expect(Consumer(head).service.name == "last")
      #expect(weakLast != nil, "the chain holds its last injection")
    }
    #expect(weakHead == nil)
    #expect(weakLast == nil)
  }
}

/// Counts the instances alive, and all ever created, from any thread.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class LiveCount: Sendable {
  private let alive = Atomic(0)
  private let total = Atomic(0)
  var value: Int { alive.load(ordering: .relaxed) }
  var created: Int { total.load(ordering: .relaxed) }
  func increment() {
    alive.add(1, ordering: .relaxed)
    total.add(1, ordering: .relaxed)
  }
  func decrement() { alive.subtract(1, ordering: .relaxed) }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class Counted: Sendable {
  let live: LiveCount
  init(_ live: LiveCount) {
    self.live = live
    live.increment()
  }
  deinit { live.decrement() }
}

/// A `.singleton` whose initializer makes a child model it does not read.
private final class Coordinator {
  let child: Consumer<Counted>
  init(child: Consumer<Counted>) { self.child = child }
}
