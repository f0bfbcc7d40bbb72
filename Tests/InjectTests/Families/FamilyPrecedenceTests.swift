import Inject
import InjectTesting
import Testing

/// A key's own override wins over every override of its family, for both kinds.
///
/// Whichever was given first, and wherever the family's was given: on the global stack, in a
/// scope, in a test, by a trait. Here the key's own is on the global stack, the lowest level a
/// key's override has.
///
/// Global overrides pushed in a test process on purpose (the warning is DebugWarningsTests'):
/// each test publishes its own family, and checks sources, never identities, which a global
/// rollback by a test beside it may change.
@Suite(.misusesOnPurpose) @MainActor struct FamilyPrecedenceTests {
  @Test func aSendableKeysGlobalOverrideWinsOverAFamilyOverridePushedAfterIt() {
    let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .singleton) { KeyedCache($0) }
    family[1].override(with: KeyedCache(1, "own"))
    family.override(with: { KeyedCache($0, "family") })
    #expect(family[1].resolve().source == "own", "the key's own override wins, whatever the order")
    #expect(family[2].resolve().source == "family")
    family.rollbackOverride()
    #expect(family[1].resolve().source == "own")
    family[1].rollbackOverride()
    #expect(family[1].resolve().source == "live")
  }

  @Test func aKeysGlobalOverrideWinsOverItsFamilysScopeAndTestOverride() {
    let (family, _) = makeFamily(.singleton)
    family[1].override(with: KeyedStore(1, "own"))
    defer { family[1].rollbackOverride() }
    family.withOverride(
      { KeyedStore($0, "scoped") },
      operation: {
        #expect(Consumer(family[1]).service.source == "own", "the key's own override wins over the family's scope")
        #expect(Consumer(family[2]).service.source == "scoped")
      })
    withIsolatedInjections {
      family.override(with: { KeyedStore($0, "test") })
      #expect(Consumer(family[1]).service.source == "own", "the key's own override wins over the family's in a test")
      #expect(Consumer(family[2]).service.source == "test")
    }
  }

  @Test func aSendableKeysGlobalOverrideWinsOverItsFamilysScopeAndTestOverride() {
    let family = SendableInjectionFamily<Int, KeyedCache>(strategy: .singleton) { KeyedCache($0) }
    family[1].override(with: KeyedCache(1, "own"))
    defer { family[1].rollbackOverride() }
    family.withOverride(
      { KeyedCache($0, "scoped") },
      operation: {
        #expect(family[1].resolve().source == "own", "the key's own override wins over the family's scope")
        #expect(family[2].resolve().source == "scoped")
      })
    withIsolatedInjections {
      family.override(with: { KeyedCache($0, "test") })
      #expect(family[1].resolve().source == "own", "the key's own override wins over the family's in a test")
      #expect(family[2].resolve().source == "test")
    }
  }

  /// The key's override is pushed on the global stack from the global world, carried into the
  /// test's world from a detached task, which inherits no world.
  @Test(.overriding(traitStores, with: { KeyedStore($0, "trait") }))
  func aKeysGlobalOverrideWinsOverItsFamilysTrait() async {
    let global = await Task.detached { InjectionWorld.current }.value
    #expect(global.isGlobal)
    global.run { traitStores[1].override(with: KeyedStore(1, "own")) }
    defer { global.run { traitStores[1].rollbackOverride() } }
    #expect(Consumer(traitStores[1]).service.source == "own", "the key's own override wins over the family's trait")
    #expect(Consumer(traitStores[2]).service.source == "trait")
  }

  @Test(.overriding(traitCaches, with: { KeyedCache($0, "trait") }))
  func aSendableKeysGlobalOverrideWinsOverItsFamilysTrait() async {
    let global = await Task.detached { InjectionWorld.current }.value
    #expect(global.isGlobal)
    global.run { traitCaches[1].override(with: KeyedCache(1, "own")) }
    defer { global.run { traitCaches[1].rollbackOverride() } }
    #expect(traitCaches[1].resolve().source == "own", "the key's own override wins over the family's trait")
    #expect(traitCaches[2].resolve().source == "trait")
  }
}

/// The families of the trait tests, each used by one test only.
@MainActor private let traitStores = InjectionFamily<Int, KeyedStore>(strategy: .singleton) { KeyedStore($0) }
private let traitCaches = SendableInjectionFamily<Int, KeyedCache>(strategy: .singleton) { KeyedCache($0) }
