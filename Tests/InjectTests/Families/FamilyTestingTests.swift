import Inject
import InjectTesting
import Testing

@MainActor let tracedStores = InjectionFamily<Int, KeyedStore>(strategy: .shared) { KeyedStore($0) }

/// Tests, sessions and strict mode know families.
@Suite @MainActor struct FamilyTestingTests {
  @Test(.overriding(tracedStores, with: { KeyedStore($0, "trait") }))
  func theTraitOverridesEveryKey() {
    #expect(Consumer(tracedStores[1]).service.source == "trait")
    #expect(Consumer(tracedStores[2]).service.source == "trait")
  }

  @Test(.overriding(tracedStores, with: { key, store in KeyedStore(key + 100, "decorated " + store.source) }))
  func theTraitDecoratesEveryKey() {
    #expect(Consumer(tracedStores[1]).service.key == 101)
  }

  @Test(.overriding(tracedStores, with: { KeyedStore($0, "trait") }))
  func aKeysOwnOverrideWinsOverTheTrait() {
    let own = KeyedStore(3, "own")
    tracedStores[3].override(with: own)
    #expect(Consumer(tracedStores[3]).service === own)
    #expect(Consumer(tracedStores[4]).service.source == "trait")
  }

  /// 64 tests at once, each overriding its own keys its own way: none sees another's.
  @Test(arguments: 0..<64)
  func parallelTestWorldsIsolateEveryKey(test: Int) async {
    await withIsolatedInjections {
      tracedStores.override(with: { KeyedStore($0, "test \(test)") })
      tracedStores[test].override(with: KeyedStore(test, "own \(test)"))
      for _ in 0..<10 {
        await Task.yield()
        for key in 0..<8 {
          let store = Consumer(tracedStores[key]).service
          #expect(store.source == (key == test ? "own \(test)" : "test \(test)"))
        }
        #expect(Consumer(tracedStores[test]).service.source == "own \(test)")
      }
    }
  }

  @Test(.isolatedInjections) func aSessionFamilyKeepsOneInstancePerKeyUntilTheSessionEnds() {
    let session = InjectionSession("room")
    let family = InjectionFamily<Int, KeyedStore>(strategy: .session(session)) { KeyedStore($0) }
    let one = Consumer(family[1]).service
    let two = Consumer(family[2]).service
    #expect(Consumer(family[1]).service === one)
    #expect(one !== two)
    session.end()
    #expect(Consumer(family[1]).service !== one)
    #expect(Consumer(family[2]).service !== two)
  }

  @Test func aStrictTestReportsAFamilyOverrideNothingResolved() async {
    let (family, _) = makeFamily(.singleton)
    var unused: [UnusedOverride] = []
    await withIsolatedInjections(
      reportingLeaks: nil, reportingUntested: { _ in }, reportingUnused: { unused.append($0) },
      operation: {
        family.withOverride(
          { KeyedStore($0, "used") }, fileID: "Tests/Rooms.swift", line: 3,
          operation: {
            _ = Consumer(family[1]).service
            _ = Consumer(family[2]).service
          })
        family.withOverride({ KeyedStore($0, "never") }, fileID: "Tests/Rooms.swift", line: 8, operation: {})
        family.override(with: { KeyedStore($0, "pushed, never") }, fileID: "Tests/Rooms.swift", line: 9)
      })
    #expect(unused.map(\.location.line) == [8, 9])
    #expect(unused.allSatisfy { $0.injection.hasPrefix("InjectionFamily<Int, KeyedStore>") })
  }
}
