import Inject
import InjectTesting
import Testing

/// When a family of either kind prunes the members that nothing needs any more, beyond its growth.
///
/// As a world that stored instances of its members ends, and as a later build finds members
/// whose `.shared` instances died. Each test its own family.
@Suite struct FamilyMembersTests {
  // MARK: A world ends

  /// A test world that resolved 100,000 keys of a main-actor `.singleton` family (5,000 unless
  /// `INJECT_STRESS=1`) ends on the main actor: the family prunes their members as it ends, with
  /// no key added (it kept them until new keys came).
  ///
  /// In a process of its own: the world's notes of its slots weigh on no count of the tests
  /// beside it (the world holders' bound of WorldReleaseTests).
  @Test(.timeLimit(.minutes(2))) func aMainActorFamilyPrunesTheMembersOfAWorldAsItEnds() async {
    await #expect(processExitsWith: .success) {
      await MainActor.run {
        let family = InjectionFamily<Int, KeyedStore>(strategy: .singleton) { KeyedStore($0) }
        resolveKeysInAWorldThatEnds(memberCount: { family.memberCount }, resolve: { _ = family[$0].resolve() })
      }
    }
  }

  /// The same for worlds that end off the main actor, where the main actor hears of them soon
  /// after: one that no consumer remembers, and one whose unread consumer does, which keeps its
  /// member and reads, late, the `.singleton` that the world built, alive elsewhere.
  ///
  /// 5,000 keys unless `INJECT_STRESS=1`: a family that prunes nothing as the world ends keeps
  /// them all, against the 0 and 1 it must keep.
  @Test(.timeLimit(.minutes(2))) func aMainActorFamilyPrunesTheMembersOfAWorldThatEndsElsewhere() async {
    await #expect(processExitsWith: .success) {
      let keys = StressScale.count(full: 100_000, quick: 5_000)
      let factory = await MainActor.run { KeyedFactory() }
      let family = InjectionFamily<Int, KeyedStore>(strategy: .singleton) { factory.make($0) }
      await withIsolatedInjections {
        await MainActor.run {
          for key in 0..<keys {
            _ = family[key].resolve()
          }
        }
      }
      try? await eventually { family.memberCount == 0 }
      precondition(family.memberCount == 0, "pruned soon after the world ended")

      let kept = await MainActor.run { Kept() }
      await withIsolatedInjections {
        await MainActor.run {
          for key in 0..<keys {
            _ = family[key].resolve()
          }
          (kept.unread, kept.held) = (Consumer(family[0]), family[0].resolve())
        }
      }
      try? await eventually { family.memberCount == 1 }
      await MainActor.run {
        precondition(family.memberCount == 1, "the unread consumer's member is kept, the others pruned")
        precondition(kept.unread?.service === kept.held, "the consumer reads what its world built, alive elsewhere")
        precondition(factory.calls[0] == 2, "one build per world")
      }
    }
  }

  // MARK: What a family holds

  /// A family released goes with its table and its identity, for both kinds: what the identity
  /// tells (a world's end, a `.shared` build) holds the table weakly, so that the table, which
  /// holds the identity, is not kept by it.
  @Test @MainActor func aReleasedFamilyLeavesNothingThatItsNotesHold() {
    weak var identity: AnyObject?
    weak var sendableIdentity: AnyObject?
    do {
      let family = InjectionFamily<Int, KeyedStore>(strategy: .shared) { KeyedStore($0) }
      let sendable = SendableInjectionFamily<Int, KeyedCache>(strategy: .shared) { KeyedCache($0) }
      // A `.shared` build of each tells its table.
      _ = family[1].resolve()
      _ = sendable[1].resolve()
      (identity, sendableIdentity) = (family.identity, sendable.identity)
    }
    #expect(identity == nil, "the main-actor family's table and identity were released")
    #expect(sendableIdentity == nil, "the sendable family's table and identity were released")
  }

  // MARK: `.shared` instances die

  /// 100,000 `.shared` instances of a main-actor family (5,000 unless `INJECT_STRESS=1`) held,
  /// then released: nothing tells the family as they die, and one later build of a member prunes
  /// their members (they stayed until as many new keys came as the table held).
  @Test @MainActor func aBuildPrunesTheMembersOfReleasedSharedInstances() {
    let (family, factory) = makeFamily(.shared)
    let keys = holdReleaseAndBuildAgain(resolve: { family[$0].resolve() }, memberCount: { family.memberCount })
    #expect(factory.calls[0] == 2 && factory.totalCalls == keys + 1)
  }

  /// The same for a sendable family, in a test world of its own.
  ///
  /// In the global world, a capture of the global world's graph by a test beside it, on the main
  /// actor while this runs on another thread, holds the instances it reads
  /// (`InjectionGraph.capture()`), so that key 0's instance lives on, its resolution builds
  /// nothing and nothing is pruned (12 rounds of 12 with captures in a loop beside it, 0 of 12
  /// without). The main-actor test above keeps the global world's case: no main-actor capture
  /// runs during it.
  @Test(.isolatedInjections) func aBuildPrunesTheMembersOfReleasedSharedInstancesOfASendableFamily() {
    let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .shared) { KeyedCache($0) }
    holdReleaseAndBuildAgain(resolve: { family[$0].resolve() }, memberCount: { family.memberCount })
  }

  /// Holds the `.shared` instances of 100,000 keys of a family (5,000 unless `INJECT_STRESS=1`)
  /// that `resolve` resolves, releases them, then builds key 0's again; returns how many keys.
  ///
  /// 5,000 are as good as more at the size the tests run: a build that prunes nothing leaves
  /// them all, against the 2 at most it must leave, and the table, doubled as it grew, holds
  /// them all until then, as it would 100,000.
  @discardableResult
  private func holdReleaseAndBuildAgain<T>(resolve: (Int) -> T, memberCount: () -> Int) -> Int {
    let keys = StressScale.count(full: 100_000, quick: 5_000)
    var held = (0..<keys).map(resolve)
    #expect(memberCount() == keys)
    held.removeAll()
    #expect(memberCount() == keys, "no look-up, no build: nothing told the family yet")
    _ = resolve(0)
    #expect(memberCount() <= 2, "the build of an existing member's instance pruned the others")
    return keys
  }

  /// What still needs a member keeps it through the pruning that a build starts: an override of
  /// its own key, a consumer that has not read, a `.shared` instance alive.
  @Test(.isolatedInjections) @MainActor func whatStillNeedsAMemberKeepsItWhenABuildPrunes() {
    let (family, factory) = makeFamily(.shared)
    family[1].override(with: KeyedStore(1, "own"))
    let unread = Consumer(family[2])
    let alive = family[3].resolve()
    var released = (10..<200).map { family[$0].resolve() }
    released.removeAll()
    _ = family[10].resolve()
    #expect(family.memberCount <= 5, "only the members still needed, and the one just built")
    #expect(family[1].resolve().source == "own", "its own override is still in place")
    #expect(unread.service === family[2].resolve(), "one member, so one .shared instance, for key 2")
    #expect(family[3].resolve() === alive)
    #expect(factory.calls[2] == 1 && factory.calls[3] == 1 && factory.calls[1] == nil)
  }

  /// The same for a sendable family, whose instances die on other threads, one by one, as the
  /// builds that prune go on.
  ///
  /// The concurrent builds leave the members in any order, the four still needed (keys 1, 2 and
  /// 3, and key 10 while it builds) possibly first; a build checks at most two members still
  /// needed before the first it removes ("FamilyCore.sweep"), so three builds reach past them
  /// however they lie, and the third then removes every member whose instance died.
  @Test(.isolatedInjections) func whatStillNeedsAMemberOfASendableFamilyKeepsItWhenABuildPrunes() async {
    let builds = Counter()
    let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .shared) { KeyedCache($0, builds: builds) }
    family[1].override(with: KeyedCache(1, "own"))
    let (unread, alive) = (SendableConsumer(family[2]), family[3].resolve())
    await withTaskGroup(of: Void.self) { group in
      for key in 10..<200 {
        group.addTask { _ = family[key].resolve() }
      }
    }
    for _ in 1...3 {
      _ = family[10].resolve()
    }
    #expect(family.memberCount <= 5, "only the members still needed, and the one just built")
    #expect([family[1].resolve().source, unread.cache.source] == ["own", "live"])
    #expect(unread.cache === family[2].resolve() && family[3].resolve() === alive, "one .shared instance per key")
    #expect(builds.value == 2 + 190 + 3, "keys 2 and 3 once, the released ones, and key 10 three times again")
  }
}

/// A consumer of a sendable family's member that reads when asked.
private final class SendableConsumer {
  @SendableInstance var cache: KeyedCache
  init(_ injection: SendableInjection<KeyedCache>) { _cache = SendableInstance(injection) }
}

/// What a test keeps on the main actor from a world that ends elsewhere.
@MainActor private final class Kept {
  var unread: Consumer<KeyedStore>?
  var held: KeyedStore?
}

/// Resolves 100,000 keys of a `.singleton` family in a test world, then ends it on the caller's
/// thread, for an exit test.
///
/// 5,000 keys unless `INJECT_STRESS=1`: a family that prunes nothing as the world ends keeps
/// them all, against none. The family's members must go as the world ends, with no look-up
/// since (the table kept them until new keys came).
func resolveKeysInAWorldThatEnds(memberCount: () -> Int, resolve: (Int) -> Void) {
  let keys = StressScale.count(full: 100_000, quick: 5_000)
  withIsolatedInjections {
    for key in 0..<keys {
      resolve(key)
    }
    precondition(memberCount() == keys)
  }
  precondition(memberCount() == 0, "pruned as the world ended, with no look-up since")
}
