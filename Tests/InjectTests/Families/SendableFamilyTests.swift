import Inject
import InjectTesting
import TestSupport
import Testing

/// A cache for one key that any isolation may hold.
final class KeyedCache: Sendable {
  let key: Int
  let source: String
  init(_ key: Int, _ source: String = "live", builds: Counter? = nil) {
    self.key = key
    self.source = source
    builds?.increment()
  }
}

private actor CacheLoader {
  @SendableInstance var cache: KeyedCache
  init(_ injection: SendableInjection<KeyedCache>) { _cache = SendableInstance(injection) }
  func identity() -> ObjectIdentifier { ObjectIdentifier(cache) }
  func source() -> String { cache.source }
}

let sharedCaches = SendableInjectionFamily<Int, KeyedCache>(strategy: .shared) { KeyedCache($0) }

@Suite struct SendableFamilyTests {
  @Test(.timeLimit(.minutes(4)), .isolatedInjections) func oneInstancePerKeyFrom64Tasks() async {
    let builds = Counter()
    let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .singleton) { KeyedCache($0, builds: builds) }
    let identities = await withTaskGroup(of: (Int, ObjectIdentifier).self) { group in
      for task in 0..<64 {
        group.addTask { (task % 4, await CacheLoader(family[task % 4]).identity()) }
      }
      return await group.reduce(into: [Int: Set<ObjectIdentifier>]()) { $0[$1.0, default: []].insert($1.1) }
    }
    #expect(identities.count == 4)
    #expect(identities.values.allSatisfy { $0.count == 1 }, "one instance per key, however many tasks ask at once")
    #expect(builds.value == 4)
  }

  /// A test world that resolved 100,000 keys of a `.singleton` family (5,000 unless
  /// `INJECT_STRESS=1`) ends: the family prunes their members as it ends, with no key added (it
  /// kept them until new keys came).
  ///
  /// In a process of its own: the world's notes of its slots weigh on no count of the tests
  /// beside it (the world holders' bound of WorldReleaseTests failed beside it).
  @Test(.timeLimit(.minutes(2))) func aFamilyPrunesTheMembersOfAWorldAsItEnds() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .singleton) { KeyedCache($0) }
      resolveKeysInAWorldThatEnds(memberCount: { family.memberCount }, resolve: { _ = family[$0].resolve() })
    }
  }

  /// 10,000 keys from eight tasks at once: a family that stops pruning, or prunes too little,
  /// passes the bound of 512 within a few thousand, and each task's 1,250 keys keep the eight
  /// racing for the table throughout.
  @Test(.timeLimit(.minutes(4))) func cyclingThroughKeysFromManyTasksKeepsTheTableBounded() async {
    let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .shared) { KeyedCache($0) }
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for key in stride(from: task, to: 10_000, by: 8) {
            _ = await CacheLoader(family[key]).source()
          }
        }
      }
    }
    #expect(family.memberCount < 512)
  }

  @Test(.isolatedInjections) func familyAndKeyOverridesRollBackExactly() async {
    let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .singleton) { KeyedCache($0) }
    let live = family[1].resolve()
    family.override(with: { KeyedCache($0, "family") })
    #expect(family[1].resolve().source == "family")
    family[1].override(with: KeyedCache(1, "own"))
    family.override(with: { key, cache in KeyedCache(key, "decorated " + cache.source) })
    #expect(family[1].resolve().source == "own")
    #expect(family[2].resolve().source == "decorated family")
    #expect(family.overrideCount == 2)
    family.rollbackAllOverrides()
    family[1].rollbackOverride()
    #expect(family[1].resolve() === live)
  }

  @Test(.overriding(sharedCaches, with: { KeyedCache($0, "trait") }))
  func theTraitOverridesEveryKeyInTheTestsTasks() async {
    #expect(await CacheLoader(sharedCaches[3]).source() == "trait")
    await sharedCaches[4].withOverride(KeyedCache(4, "own")) {
      #expect(await CacheLoader(sharedCaches[4]).source() == "own")
    }
    let inScope = await sharedCaches.withOverride(
      { KeyedCache($0, "scoped") },
      operation: {
        await CacheLoader(sharedCaches[5]).source()
      })
    #expect(inScope == "scoped")
  }
}
