import Inject
import InjectTesting
import Testing

@Suite @MainActor struct FamilyTests {
  @Test(.isolatedInjections) func oneMemberAndOneInstancePerKey() {
    let (family, factory) = makeFamily(.shared)
    #expect(family[1] === family[1], "equal keys give the same member")
    #expect(family[1] !== family[2])
    let first = Consumer(family[1])
    let again = Consumer(family[1])
    let other = Consumer(family[2])
    #expect(first.service === again.service)
    #expect(first.service !== other.service)
    #expect(first.service.key == 1 && other.service.key == 2)
    #expect(factory.calls == [1: 1, 2: 1])
  }

  @Test(.isolatedInjections) func unequalKeysWithEqualHashesGetTwoInstances() {
    let family = InjectionFamily<CollidingKey, KeyedStore>(strategy: .singleton) { KeyedStore($0.id) }
    let one = Consumer(family[CollidingKey(id: 1)]).service
    let two = Consumer(family[CollidingKey(id: 2)]).service
    #expect(one !== two)
    #expect(one.key == 1 && two.key == 2)
    #expect(Consumer(family[CollidingKey(id: 1)]).service === one)
  }

  @Test(.isolatedInjections) func aSharedInstanceIsReleasedAfterItsLastHolder() {
    let (family, factory) = makeFamily(.shared)
    weak var released: KeyedStore?
    do {
      let consumer = Consumer(family[7])
      released = consumer.service
      #expect(Consumer(family[7]).service === consumer.service)
    }
    #expect(released == nil)
    _ = Consumer(family[7]).service
    #expect(factory.calls[7] == 2, "a new holder gets a new instance")
  }

  /// A million keys in CI's release run (INJECT_STRESS=1): the table holds the keys in use,
  /// whatever went before.
  ///
  /// 10,000 keys otherwise: the bound is the first pruning's threshold, 64, so a family that
  /// stops pruning, or prunes too little to stay under it, passes it within a few hundred keys;
  /// 10,000 are some 150 thresholds' worth.
  @Test func cyclingThroughKeysKeepsTheTableBounded() {
    let (family, factory) = makeFamily(.shared)
    let keys = StressScale.count(full: 1_000_000, quick: 10_000)
    var largest = 0
    for key in 0..<keys {
      _ = Consumer(family[key]).service
      largest = max(largest, family.memberCount)
    }
    #expect(largest <= 64, "pruned as it grows: never more than the first pruning's threshold")
    #expect(factory.totalCalls == keys)
  }

  /// 1,900 other keys: each build of one checks a few members, so the members in use are
  /// checked, and must be kept, a hundred times over, and a family that prunes none passes the
  /// bound of 200 nine times over.
  @Test(.isolatedInjections) func theKeysInUseSurvivePruning() {
    let (family, factory) = makeFamily(.shared)
    let held = (0..<10).map { Consumer(family[$0]).service }
    let elsewhere = family[10].resolve()
    for key in 100..<2_000 {
      _ = Consumer(family[key]).service
    }
    #expect(family.memberCount < 200)
    for (key, store) in held.enumerated() {
      #expect(Consumer(family[key]).service === store, "a consumer holds it: the same instance")
    }
    #expect(Consumer(family[10]).service === elsewhere, "held elsewhere: still shared")
    #expect((0...10).allSatisfy { factory.calls[$0] == 1 })
  }

  @Test(.isolatedInjections) func aSingletonPerKeyLivesWithItsWorldThroughPruning() {
    let (family, factory) = makeFamily(.singleton)
    let first = Consumer(family[0]).service
    for key in 1..<1_000 {
      _ = Consumer(family[key]).service
    }
    #expect(Consumer(family[0]).service === first)
    #expect(factory.calls[0] == 1)
  }

  /// A member that only a family override's layer resolved through holds nothing itself: it may be
  /// pruned, and the member made again for its key finds what the scope and the test stored.
  @Test(.isolatedInjections) func whatAFamilysOverrideStoredSurvivesPruningOfItsMember() {
    let (family, _) = makeFamily(.singleton)
    family.override(with: { KeyedStore($0, "test") })
    let inTest = Consumer(family[0]).service
    family.withOverride(
      { KeyedStore($0, "scoped") },
      operation: {
        let inScope = Consumer(family[0]).service
        for key in 1..<1_000 {
          _ = family[key]
        }
        #expect(family.memberCount < 200, "members that resolved nothing are pruned")
        #expect(Consumer(family[0]).service === inScope)
      })
    #expect(Consumer(family[0]).service === inTest)
  }

  /// A member that outlives a scope overriding its family keeps nothing of the override: not its
  /// layer, nor what the override's closure captured.
  @Test(.isolatedInjections) func aMemberKeepsNothingOfAFamilyScopeThatEnded() {
    let (family, _) = makeFamily(.onDemand)
    let member = family[1]
    weak var captured: KeyedFactory?
    do {
      let mocks = KeyedFactory("mock")
      captured = mocks
      family.withOverride(
        { mocks.make($0) },
        operation: {
          #expect(member.resolve().source == "mock")
        })
    }
    #expect(captured == nil)
    #expect(member.resolve().source == "live")
  }

  @Test func onDemandBuildsPerConsumer() {
    let (family, factory) = makeFamily(.onDemand)
    #expect(Consumer(family[1]).service !== Consumer(family[1]).service)
    #expect(factory.calls[1] == 2)
  }

  @Test(.isolatedInjections) func aFamilyOverrideAppliesToEveryKeyAndOneKeyWins() {
    let (family, factory) = makeFamily(.singleton)
    let live = Consumer(family[1]).service
    family.override(with: { KeyedStore($0, "family") })
    #expect(family.overrideCount == 1)
    #expect(Consumer(family[1]).service.source == "family")
    #expect(Consumer(family[2]).service.source == "family", "a member made after the push gets it")
    let one = KeyedStore(2, "one")
    family[2].override(with: one)
    #expect(Consumer(family[2]).service === one)
    family.override(with: { KeyedStore($0, "later") })
    #expect(Consumer(family[2]).service === one, "the key's own override wins, whatever the order")
    #expect(Consumer(family[3]).service.source == "later")
    family.rollbackAllOverrides()
    #expect(family.overrideCount == 0)
    #expect(Consumer(family[2]).service === one)
    family[2].rollbackOverride()
    #expect(Consumer(family[1]).service === live, "stored before the push: the same instance")
    #expect(Consumer(family[2]).service.source == "live")
    #expect(factory.calls[1] == 1)
  }

  @Test(.isolatedInjections) func aFamilyDecoratorGetsTheKeyAndTheInstanceBeneath() {
    let (family, _) = makeFamily(.singleton)
    family.override(with: { key, store in KeyedStore(key * 10 + store.key, "decorated") })
    #expect(Consumer(family[4]).service.key == 44)
  }

  @Test(.isolatedInjections) func aScopedFamilyOverrideAppliesInsideOnly() {
    let (family, _) = makeFamily(.singleton)
    let outside = Consumer(family[1])
    family.withOverride(
      { KeyedStore($0, "scoped") },
      operation: {
        #expect(Consumer(family[1]).service.source == "scoped")
        #expect(Consumer(family[5]).service.source == "scoped")
        let own = KeyedStore(5, "own")
        family[5].withOverride(own) {
          #expect(Consumer(family[5]).service === own)
        }
      })
    #expect(outside.service.source == "live")
    #expect(Consumer(family[5]).service.source == "live")
  }
}
