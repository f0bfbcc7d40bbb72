import Inject
import InjectTesting
import Testing

/// A family prunes only the members that nothing but its table holds: a member that a test's
/// override of its key, or a consumer that has not read yet, holds is kept, however many keys
/// come after it; for both kinds.
///
/// Each test adds 200 members that nothing holds after its key's, so that the table is pruned
/// (at 64 members, then at 128) while it holds the key's.
@Suite(.isolatedInjections) struct FamilyPruningTests {
  static let otherKeys = 100..<300

  @Test @MainActor func aMemberThatOnlyTheTestsOverrideOfItsKeyHoldsIsKept() {
    let (family, factory) = makeFamily(.shared)
    family[5].override(with: KeyedStore(5, "own"))
    for key in Self.otherKeys {
      _ = family[key]
    }
    #expect(family.memberCount < Self.otherKeys.count, "the table was pruned")
    #expect(Consumer(family[5]).service.source == "own", "the key's member is the one overridden")
    #expect(factory.totalCalls == 0)
  }

  @Test @MainActor func aMemberThatOnlyAnUnreadConsumerHoldsIsKept() {
    let (family, factory) = makeFamily(.shared)
    let unread = Consumer(family[7])
    for key in Self.otherKeys {
      _ = family[key]
    }
    #expect(family.memberCount < Self.otherKeys.count, "the table was pruned")
    let later = Consumer(family[7])
    #expect(unread.service === later.service, "one member, so one .shared instance for both")
    #expect(factory.calls[7] == 1)
  }

  @Test func aSendableMemberThatOnlyTheTestsOverrideOfItsKeyHoldsIsKept() {
    let builds = Counter()
    let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .shared) { KeyedCache($0, builds: builds) }
    family[5].override(with: KeyedCache(5, "own"))
    for key in Self.otherKeys {
      _ = family[key]
    }
    #expect(family.memberCount < Self.otherKeys.count, "the table was pruned")
    #expect(family[5].resolve().source == "own", "the key's member is the one overridden")
    #expect(builds.value == 0)
  }

  @Test func aSendableMemberThatOnlyAnUnreadConsumerHoldsIsKept() {
    let builds = Counter()
    let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .shared) { KeyedCache($0, builds: builds) }
    let unread = CacheConsumer(family[7])
    for key in Self.otherKeys {
      _ = family[key]
    }
    #expect(family.memberCount < Self.otherKeys.count, "the table was pruned")
    let later = CacheConsumer(family[7])
    #expect(unread.cache === later.cache, "one member, so one .shared instance for both")
    #expect(builds.value == 1)
  }
}

/// A consumer of a sendable family's member, which resolves when it first reads.
private final class CacheConsumer {
  @SendableInstance var cache: KeyedCache
  init(_ injection: SendableInjection<KeyedCache>) { _cache = SendableInstance(injection) }
}
