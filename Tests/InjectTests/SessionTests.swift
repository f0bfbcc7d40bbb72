import Inject
import InjectTesting
import Testing

/// A store of the signed-in user's data: a class, so identities and deallocation tell
/// generations apart.
final class AccountStore {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

/// A repository that reads the session's store while it is built.
@MainActor
final class SessionRepository {
  @Instance var store: AccountStore
  let storeAtInit: AccountStore

  init(_ injection: Injection<AccountStore>) {
    _store = Instance(injection)
    storeAtInit = _store.wrappedValue
  }
}

/// A session, its store injection and a counter of the store's builds.
@MainActor
final class SessionFixture {
  let session = InjectionSession("signed-in user")
  let store: Injection<AccountStore>
  private let counter = StoreCounter()
  var builds: Int { counter.builds }

  init() {
    // The factory holds the counter, not the fixture, which holds the injection: no cycle.
    let counter = counter
    store = Injection(strategy: .session(session), instance: counter.makeStore())
  }
}

/// Counts the account stores it builds, numbering each.
@MainActor
final class StoreCounter {
  private(set) var builds = 0

  func makeStore() -> AccountStore {
    builds += 1
    return AccountStore(serial: builds)
  }
}

@Suite(.misusesOnPurpose) @MainActor struct SessionTests {
  @Test func oneGenerationSharesOneInstanceAndEndingItBuildsANewOne() {
    let fixture = SessionFixture()
    let first = Consumer(fixture.store).service
    #expect(Consumer(fixture.store).service === first)
    #expect(fixture.builds == 1)
    fixture.session.end()
    let second = Consumer(fixture.store).service
    #expect(second !== first)
    #expect(Consumer(fixture.store).service === second)
    #expect(fixture.builds == 2)
  }

  @Test func endReleasesTheInstanceAndConsumersKeepWhatTheyHold() {
    let fixture = SessionFixture()
    weak var released: AccountStore?
    let holder = Consumer(fixture.store)
    do {
      released = Consumer(fixture.store).service
      #expect(holder.service === released)
    }
    fixture.session.end()
    #expect(released != nil, "a consumer that resolved before end() keeps its instance")
    #expect(holder.service === released)
    weak var second: AccountStore?
    do {
      second = Consumer(fixture.store).service
      #expect(second !== released)
    }
    #expect(second != nil, "the new generation keeps its instance")
    withExtendedLifetime(holder) {}
  }

  /// An ended generation that a surviving instance keeps listed names the injection that built
  /// it, without holding it: what the factory captured (another injection, and what that one
  /// keeps) goes with the injection.
  @Test func anEndedGenerationDoesNotKeepTheInjectionThatBuiltItsSurvivor() {
    let session = InjectionSession("captured")
    weak var captured: Injection<AccountStore>?
    var survivor: AccountStore?
    do {
      let other = Injection<AccountStore>(strategy: .singleton, instance: AccountStore(serial: 1))
      captured = other
      let store = Injection<AccountStore>(
        strategy: .session(session), instance: AccountStore(serial: other.resolve().serial + 1))
      survivor = store.resolve()
      session.end()
    }
    #expect(survivor?.serial == 2)
    #expect(captured == nil, "the ended generation keeps what names the survivor's injection, not the injection")
    withExtendedLifetime(survivor) {}
  }

  @Test func theSessionAloneDoesNotKeepItsInstanceAfterEnd() {
    let fixture = SessionFixture()
    weak var released: AccountStore?
    do { released = Consumer(fixture.store).service }
    #expect(released != nil)
    fixture.session.end()
    #expect(released == nil)
  }

  @Test func aSingletonBuiltWithTheSessionsInstanceIsRebuiltAfterEnd() {
    let fixture = SessionFixture()
    let repository = Injection<SessionRepository>(strategy: .singleton, instance: SessionRepository(fixture.store))
    let first = Consumer(repository).service
    #expect(first.storeAtInit === Consumer(fixture.store).service)
    fixture.session.end()
    let second = Consumer(repository).service
    #expect(second !== first)
    #expect(second.storeAtInit !== first.storeAtInit)
    #expect(second.storeAtInit === Consumer(fixture.store).service)
    #expect(first.store === first.storeAtInit, "the old repository's holders keep it and what it holds")
  }

  @Test func aSingletonBuiltWithAStoredSessionInstanceIsRebuiltAfterEnd() {
    let fixture = SessionFixture()
    let store = Consumer(fixture.store).service
    let repository = Injection<SessionRepository>(strategy: .singleton, instance: SessionRepository(fixture.store))
    let first = Consumer(repository).service
    #expect(first.storeAtInit === store)
    fixture.session.end()
    #expect(Consumer(repository).service !== first)
  }

  @Test func whatABuildMadeWithAGenerationThatEndedMeanwhileIsNotStored() {
    let fixture = SessionFixture()
    let repository = Injection<SessionRepository>(
      strategy: .singleton,
      instance: {
        let repository = SessionRepository(fixture.store)
        fixture.session.end()
        return repository
      }())
    let first = Consumer(repository).service
    let second = Consumer(repository).service
    #expect(second !== first)
    #expect(second.storeAtInit !== first.storeAtInit)
  }

  @Test func aDependentThroughANestedBuildIsRebuiltToo() {
    let fixture = SessionFixture()
    let repository = Injection<SessionRepository>(strategy: .onDemand, instance: SessionRepository(fixture.store))
    // A singleton that holds an on-demand repository, which read the store while it was built.
    let model = Injection<SessionBox>(strategy: .singleton, instance: SessionBox(Consumer(repository).service))
    let first = Consumer(model).service
    fixture.session.end()
    #expect(Consumer(model).service !== first)
  }

  @Test func aSingletonMerelyStoredDuringTheSessionStays() {
    let fixture = SessionFixture()
    let (unrelated, factory) = makeInjection(.singleton)
    _ = Consumer(fixture.store).service
    let kept = Consumer(unrelated).service
    fixture.session.end()
    #expect(Consumer(unrelated).service === kept)
    #expect(factory.calls == 1)
  }

  @Test func endingTwiceOrBeforeAnyResolutionChangesNothingAndWarns() {
    let fixture = SessionFixture()
    let (_, neverBegun) = withDebugWarningsCaptured { fixture.session.end() }
    #expect(neverBegun.count == expectedWarningCount(1))
    #expect(neverBegun.allSatisfy { $0.contains("found no generation to end") })
    let first = Consumer(fixture.store).service
    fixture.session.end()
    let (_, twice) = withDebugWarningsCaptured { fixture.session.end() }
    #expect(twice.count == expectedWarningCount(1))
    let second = Consumer(fixture.store).service
    #expect(second !== first)
    #expect(fixture.builds == 2)
  }

  @Test func anOverrideOfTheSessionInjectionIsReleasedByEndAndRollbackKeepsTheGeneration() {
    withIsolatedInjections {
      let fixture = SessionFixture()
      var overrides = 0
      fixture.store.override(
        with: {
          overrides += 1
          return AccountStore(serial: 100 + overrides)
        }())
      weak var overridden: AccountStore?
      do { overridden = Consumer(fixture.store).service }
      #expect(overridden?.serial == 101)
      fixture.session.end()
      #expect(overridden == nil)
      let second = Consumer(fixture.store).service
      #expect(second.serial == 102)
      fixture.store.rollbackOverride()
      // The rollback drops what the popped override built, and the published layer builds within
      // the same generation: ending it releases that one.
      weak var published: AccountStore?
      do { published = Consumer(fixture.store).service }
      #expect(published?.serial == 1)
      fixture.session.end()
      #expect(published == nil)
    }
  }

  @Test func testWorldsAndScopesKeepTheirOwnGenerations() {
    let fixture = SessionFixture()
    let global = Consumer(fixture.store).service
    withIsolatedInjections {
      let outer = Consumer(fixture.store).service
      #expect(outer !== global)
      withIsolatedInjections {
        let inner = Consumer(fixture.store).service
        fixture.session.end()
        #expect(Consumer(fixture.store).service !== inner)
      }
      #expect(Consumer(fixture.store).service === outer, "ending in a nested world keeps the enclosing one's")
      fixture.session.end()
      #expect(Consumer(fixture.store).service !== outer)
    }
    #expect(Consumer(fixture.store).service === global)
  }

  @Test func aDeinitThatResolvesDuringEndBuildsInTheNextGeneration() {
    let fixture = SessionFixture()
    final class Resolver {
      let onDeinit: () -> Void
      init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
      deinit { onDeinit() }
    }
    var resolvedInDeinit: AccountStore?
    let resolver = Injection<Resolver>(
      strategy: .session(fixture.session),
      instance: Resolver {
        MainActor.assumeIsolated { resolvedInDeinit = Consumer(fixture.store).service }
      })
    _ = Consumer(resolver).service
    let first = Consumer(fixture.store).service
    fixture.session.end()
    #expect(resolvedInDeinit != nil)
    #expect(resolvedInDeinit !== first)
    #expect(Consumer(fixture.store).service === resolvedInDeinit)
    weak let next = resolvedInDeinit
    resolvedInDeinit = nil
    fixture.session.end()
    #expect(next == nil, "the next end() releases what the deinit built")
  }

  @Test(arguments: 0..<64) func parallelTestsEachEndTheirOwnSession(index: Int) async {
    let fixture = SessionFixture()
    await withIsolatedInjections {
      let first = Consumer(fixture.store).service
      await Task.yield()
      fixture.session.end()
      await Task.yield()
      #expect(Consumer(fixture.store).service !== first)
      #expect(fixture.builds == 2)
    }
  }

  @Test func survivorsAreTheEndedGenerationsInstancesStillHeldIncludingThoseARollbackDropped() {
    withIsolatedInjections {
      let fixture = SessionFixture()
      fixture.store.override(with: AccountStore(serial: 100))
      let dropped = Consumer(fixture.store)
      #expect(dropped.service.serial == 100)
      fixture.store.rollbackOverride()
      let held = Consumer(fixture.store)
      #expect(held.service.serial == 1)
      let other = Injection<AccountStore>(strategy: .session(fixture.session), instance: AccountStore(serial: 200))
      weak var released: AccountStore?
      do { released = Consumer(other).service }
      #expect(released != nil)
      #expect(fixture.session.survivors().isEmpty, "a generation still current has no survivors")
      fixture.session.end()
      #expect(released == nil)
      #expect(fixture.session.survivors().map(\.injection).count == 2)
      withExtendedLifetime((dropped, held)) {}
      #expect(fixture.session.survivors().count == 2, "asking again lists them again")
    }
  }

  @Test func strategiesStayThreeAndSessionsCompareByIdentity() {
    #expect(Strategy.allCases == [.shared, .singleton, .onDemand])
    let session = InjectionSession("a")
    #expect(Strategy.session(session) == .session(session))
    #expect(Strategy.session(session) != .session(InjectionSession("a")))
    #expect("\(Strategy.session(session))" == "session(a)")
  }
}

/// Holds a value, for a singleton that holds another injection's instance.
final class SessionBox {
  let value: AnyObject
  init(_ value: AnyObject) { self.value = value }
}
