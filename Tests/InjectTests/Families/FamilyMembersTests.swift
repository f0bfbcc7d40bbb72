import Inject
import InjectTesting
import Testing

/// When a family of either kind prunes the members that nothing needs any more, beyond its growth.
///
/// As a world that stored instances of its members ends. Each test its own family.
@Suite struct FamilyMembersTests {
  // MARK: A world ends

  /// A test world that resolved 100,000 keys of a main-actor `.singleton` family (20,000 unless
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
  @Test(.timeLimit(.minutes(2))) func aMainActorFamilyPrunesTheMembersOfAWorldThatEndsElsewhere() async {
    await #expect(processExitsWith: .success) {
      let keys = StressScale.count(full: 100_000, quick: 20_000)
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
}

/// What a test keeps on the main actor from a world that ends elsewhere.
@MainActor private final class Kept {
  var unread: Consumer<KeyedStore>?
  var held: KeyedStore?
}

/// Resolves 100,000 keys of a `.singleton` family in a test world, then ends it on the caller's
/// thread, for an exit test.
///
/// 20,000 keys unless `INJECT_STRESS=1`. The family's members must go as the world ends, with
/// no look-up since (the table kept them until new keys came).
func resolveKeysInAWorldThatEnds(memberCount: () -> Int, resolve: (Int) -> Void) {
  let keys = StressScale.count(full: 100_000, quick: 20_000)
  withIsolatedInjections {
    for key in 0..<keys {
      resolve(key)
    }
    precondition(memberCount() == keys)
  }
  precondition(memberCount() == 0, "pruned as the world ended, with no look-up since")
}
