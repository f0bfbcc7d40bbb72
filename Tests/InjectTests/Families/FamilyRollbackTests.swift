import Inject
import InjectTesting
import TestSupport
import Testing

/// A repository that holds the store of one key: the `.singleton` dependent that a family's
/// override must not outlive.
final class KeyedRepository {
  let store: KeyedStore
  init(store: KeyedStore) { self.store = store }
}

/// Exact rollback across the family's and the key's overrides, through a dependent `.singleton`.
@Suite(.misusesOnPurpose) @MainActor struct FamilyRollbackTests {
  @Test(.isolatedInjections) func aDependentSingletonBuiltWithTheFamilysOverrideIsRebuiltAfterItsRollback() {
    let (family, _) = makeFamily(.singleton)
    let repository = Injection<KeyedRepository>(
      strategy: .singleton, instance: KeyedRepository(store: family[3].resolve()))
    let live = Consumer(repository).service
    #expect(live.store.source == "live")
    family.override(with: { KeyedStore($0, "family") })
    #expect(Consumer(repository).service === live, "stored before the push: kept")
    repository.override(with: KeyedRepository(store: family[3].resolve()))
    let overridden = Consumer(repository).service
    #expect(overridden.store.source == "family")
    repository.rollbackOverride()
    repository.withOverride(
      { _ in KeyedRepository(store: family[3].resolve()) }, strategy: .singleton,
      operation: {
        #expect(Consumer(repository).service.store.source == "family")
      })
    family.rollbackOverride()
    #expect(Consumer(repository).service === live)
    #expect(Consumer(family[3]).service === live.store)
  }

  @Test(.isolatedInjections) func aSingletonBuiltWhileTheFamilysOverrideWasInPlaceIsDroppedWithIt() {
    let (family, _) = makeFamily(.singleton)
    let repository = Injection<KeyedRepository>(
      strategy: .singleton, instance: KeyedRepository(store: family[1].resolve()))
    family.override(with: { KeyedStore($0, "mock") })
    weak var built: KeyedRepository?
    do {
      let repositoryWithMock = Consumer(repository).service
      built = repositoryWithMock
      #expect(repositoryWithMock.store.source == "mock")
    }
    family.rollbackOverride()
    #expect(built == nil, "the rollback dropped the singleton built with the mock")
    #expect(Consumer(repository).service.store.source == "live")
  }

  @Test(.isolatedInjections) func theKeysOwnRollbackLeavesTheFamilysOverride() {
    let (family, _) = makeFamily(.singleton)
    family.override(with: { KeyedStore($0, "family") })
    family[2].override(with: KeyedStore(2, "own"))
    #expect(family[2].overrideCount == 1)
    family[2].rollbackOverride()
    family[2].rollbackOverride()
    #expect(family[2].overrideCount == 0)
    #expect(family.overrideCount == 1)
    #expect(Consumer(family[2]).service.source == "family", "a key's rollback pops its own overrides only")
  }

  /// A long test that pushes and rolls back the family's override many times keeps what one
  /// push keeps: the test's worlds forget what each rolled-back override built.
  @Test(.isolatedInjections) func overridesPushedAndRolledBackInATestLeaveNothingBehind() throws {
    let (family, _) = makeFamily(.singleton)
    let held = family[7]
    func cycle() {
      family.override(with: { KeyedStore($0, "mock") })
      #expect(held.resolve().source == "mock")
      family.rollbackOverride()
    }
    cycle()
    let slotsAfterOne = try #require(slotCountInCurrentWorld())
    for _ in 0..<200 {
      cycle()
    }
    #expect(try #require(slotCountInCurrentWorld()) <= slotsAfterOne)
    #expect(held.resolve().source == "live")
  }

  @Test(.isolatedInjections) func aMembersDecoratorDecoratesTheFamilysOverride() {
    let (family, _) = makeFamily(.onDemand)
    family[5].override(with: { KeyedStore($0.key, "decorated " + $0.source) })
    family.override(with: { KeyedStore($0, "family") })
    #expect(Consumer(family[5]).service.source == "decorated family")
    family.rollbackOverride()
    #expect(Consumer(family[5]).service.source == "decorated live")
  }

  /// A family override popped from a test's stack while other threads resolve its members in a
  /// scope leaves no slot of it there: a resolution that read the stack before the pop, and made
  /// the member's layer of it after the pop had looked for them, forgets the slot it makes.
  ///
  /// The 200 overrides beneath make each resolution read the stack long before it reaches the
  /// top one's layer, so that the pops land in that window: without the rule, 1,000 cycles left
  /// 2 to 10 slots of popped layers.
  @Test(.timeLimit(.minutes(4)))
  nonisolated func aFamilyOverridePoppedFromATestsStackWhileThreadsResolveItsMembersLeavesNoSlot() async {
    await withIsolatedInjections {
      let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .singleton) { KeyedCache($0) }
      for _ in 0..<200 {
        family.override(with: { KeyedCache($0, "beneath") })
      }
      let scoped = SendableInjection<KeyedCache>(strategy: .onDemand, instance: KeyedCache(0))
      await scoped.withOverride(KeyedCache(0, "scoped")) {
        resolvingOnTwoThreads(in: .current, { _ = family[Int.random(in: 0..<3)].resolve() }) {
          for _ in 0..<1_000 {
            family.override(with: { KeyedCache($0, "popped") })
            family.rollbackOverride()
          }
        }
        // Each key once more, with no rollback to overlap its store: a build that a rollback
        // overlapped is not kept, and under a sanitizer's timing every build of one key may have
        // been (its slot listed, nothing stored).
        for key in 0..<3 {
          _ = family[key].resolve()
        }
        let (slots, stored) = await MainActor.run { (slotCountInCurrentWorld(), storedSlotCountInCurrentWorld()) }
        #expect(slots == 3, "the top layer's slot of each key alone")
        #expect(stored == 3)
        #expect(family[1].resolve().source == "beneath")
      }
    }
  }

  /// A family override pushed on the global stack reaches a member already resolved in a scope's
  /// world at once, and its rollback restores the live instance.
  ///
  /// The scope's part keeps the member's last layer only while no stack changes. In a process of
  /// its own.
  @Test(.timeLimit(.minutes(4))) func aGlobalFamilyOverrideReachesAMemberAlreadyResolvedInAScope() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .singleton) { KeyedCache($0) }
      let unrelated = SendableInjection<KeyedCache>(strategy: .onDemand, instance: KeyedCache(0))
      unrelated.withOverride(KeyedCache(0, "scoped")) {
        precondition(family[1].resolve().source == "live")
        withDebugWarningsSilenced { family.override(with: { KeyedCache($0, "family") }) }
        precondition(family[1].resolve().source == "family", family[1].resolve().source)
        family.rollbackOverride()
        precondition(family[1].resolve().source == "live")
      }
    }
  }

  /// A family released with a global override still pushed (a test that forgot its rollback)
  /// rolls nothing back.
  ///
  /// What any injection stored while it was in place keeps its identity, and a member that lives
  /// on keeps the family's layer and what it stored; the log stops counting the override, and
  /// lists nothing once no override is left. For both kinds of family, in a process of its own.
  @Test(.timeLimit(.minutes(4))) func aFamilyReleasedWithAGlobalOverrideRollsNothingBack() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run {
        for sendable in [true, false] {
          let repository = SendableInjection<KeyedCache>(strategy: .singleton, instance: KeyedCache(0))
          let mainActorRepository = Injection<KeyedCache>(strategy: .singleton, instance: KeyedCache(0))
          var sendableFamily: SendableInjectionFamily<Int, KeyedCache>? =
            sendable ? SendableInjectionFamily(strategy: .singleton) { KeyedCache($0) } : nil
          var mainActorFamily: InjectionFamily<Int, KeyedCache>? =
            sendable ? nil : InjectionFamily(strategy: .singleton) { KeyedCache($0) }
          sendableFamily?.override(with: { KeyedCache($0, "family") })
          mainActorFamily?.override(with: { KeyedCache($0, "family") })
          let (sendableMember, mainActorMember) = (sendableFamily?[1], mainActorFamily?[1])
          @MainActor func resolveMember() -> KeyedCache {
            sendableMember?.resolve() ?? mainActorMember.unsafelyUnwrapped.resolve()
          }
          let fromTheFamily = resolveMember()
          precondition(fromTheFamily.source == "family")
          let storedMeanwhile = (repository.resolve(), mainActorRepository.resolve())
          // Another injection's push, rolled back after the release: it drops only what stored
          // since it was pushed.
          repository.override(with: KeyedCache(0, "pushed"))
          precondition(repository.resolve().source == "pushed")
          precondition(globalRollbackLogCount() > 0, "the log lists what was stored while pushed")
          (sendableFamily, mainActorFamily) = (nil, nil)
          precondition(mainActorRepository.resolve() === storedMeanwhile.1, "a release rolls nothing back")
          repository.rollbackOverride()
          precondition(repository.resolve() === storedMeanwhile.0, "stored before the rolled-back push: kept")
          precondition(resolveMember() === fromTheFamily, "the member lives on, with its family's layer")
          precondition(globalRollbackLogCount() == 0, "no override left: the log lists nothing")
        }
      }
    }
  }

  /// On the global stack: in a process of its own, where no other test's global rollback drops
  /// what this one stored.
  @Test(.timeLimit(.minutes(4))) func theGlobalStackRollsBackExactly() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run {
        let factory = KeyedFactory()
        let family = InjectionFamily<Int, KeyedStore>(strategy: .singleton) { factory.make($0) }
        let repository = Injection<KeyedRepository>(
          strategy: .singleton, instance: KeyedRepository(store: family[1].resolve()))
        let live = Consumer(family[1]).service
        family.override(with: { KeyedStore($0, "family") })
        precondition(family.overrideCount == 1 && family[1].overrideCount == 0)
        precondition(Consumer(family[1]).service.source == "family", "new consumers get the override")
        precondition(Consumer(family[2]).service.source == "family", "a member made after the push gets it")
        weak let builtWithTheOverride = Consumer(repository).service
        precondition(builtWithTheOverride?.store.source == "family")
        let own = KeyedStore(2, "own")
        family[2].override(with: own)
        family.override(with: { key, store in KeyedStore(key, "decorated " + store.source) })
        precondition(Consumer(family[2]).service === own, "the key's own override wins")
        precondition(Consumer(family[3]).service.source == "decorated family")
        family.rollbackAllOverrides()
        precondition(family.overrideCount == 0)
        precondition(builtWithTheOverride == nil, "the singleton built with the override was dropped")
        precondition(Consumer(family[1]).service === live, "stored before the push: the same instance")
        precondition(Consumer(repository).service.store === live)
        precondition(Consumer(family[2]).service === own)
        precondition(Consumer(family[3]).service.source == "live")
        family[2].rollbackOverride()
        precondition(Consumer(family[2]).service.source == "live")
        precondition(factory.calls == [1: 1, 2: 1, 3: 1])
      }
    }
  }
}
