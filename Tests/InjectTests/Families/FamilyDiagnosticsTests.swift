import Foundation
import Inject
import InjectTesting
import TestSupport
import Testing

/// A tree of rooms: a room's store holds its parent's, from the same family, another key.
final class RoomStore {
  let id: Int
  let parent: RoomStore?
  init(id: Int, parent: RoomStore?) {
    self.id = id
    self.parent = parent
  }
}

@MainActor let roomStores = InjectionFamily<Int, RoomStore>(strategy: .singleton, fileID: "App/Rooms.swift", line: 1) {
  id in RoomStore(id: id, parent: id == 0 ? nil : roomStores[id / 2].resolve())
}

@MainActor let selfReadingRooms = InjectionFamily<Int, RoomStore>(
  strategy: .singleton, fileID: "App/Rooms.swift", line: 5
) { id in RoomStore(id: id, parent: selfReadingRooms[id].resolve()) }

@Suite @MainActor struct FamilyDiagnosticsTests {
  @Test(.isolatedInjections) func aFactoryMayResolveItsFamilyWithAnotherKey() {
    let leaf = Consumer(roomStores[6]).service
    #expect(leaf.parent?.id == 3)
    #expect(leaf.parent?.parent?.id == 1)
    #expect(leaf.parent?.parent === Consumer(roomStores[1]).service)
  }

  @Test @MainActor func aKeysLineBreaksAreEscapedInMessages() {
    let family = InjectionFamily<String, KeyedStore>(strategy: .singleton, fileID: "App/Rooms.swift", line: 9) { _ in
      KeyedStore(0)
    }
    #expect(family["a\nb"].debugDescription.hasPrefix("Injection<KeyedStore>[a\\nb] published at App/Rooms.swift:9"))
  }

  @Test(.timeLimit(.minutes(4))) func aFactoryThatResolvesItsOwnKeyStopsWithTheCycleMessageNamingTheKey() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run { _ = Consumer(selfReadingRooms[4]).service }
      })
    #expect(
      result.standardErrorText.contains(
        "Dependency cycle: Injection<RoomStore>[4] (App/Rooms.swift:5) → Injection<RoomStore>[4] (App/Rooms.swift:5)"))
  }

  /// A key whose `hash(into:)` disagrees with its `==` stops the program with a message naming
  /// the family and the key's type, as soon as the family's table finds two equal keys; for both
  /// kinds, never the standard library's "Duplicate keys" trap, which names neither.
  @Test(.timeLimit(.minutes(4))) func equalKeysThatHashApartStopWithAMessageNamingTheFamily() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let family = InjectionFamily<SaltedKey, KeyedStore>(strategy: .shared, fileID: "App/Rooms.swift", line: 7) {
            KeyedStore($0.id)
          }
          holdMembersOfEqualKeysThatHashApart { family[$0] }
        }
      })
    #expect(
      result.standardErrorText.contains(
        hashDisagreement(of: "InjectionFamily<SaltedKey, KeyedStore> (App/Rooms.swift:7)")),
      "\(result.standardErrorText)")
  }

  @Test(.timeLimit(.minutes(4))) func equalSendableKeysThatHashApartStopWithAMessageNamingTheFamily() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        let family = SendableInjectionFamily<SaltedKey, KeyedCache>(
          strategy: .shared, fileID: "App/Caches.swift", line: 8
        ) { KeyedCache($0.id) }
        holdMembersOfEqualKeysThatHashApart { family[$0] }
      })
    #expect(
      result.standardErrorText.contains(
        hashDisagreement(of: "SendableInjectionFamily<SaltedKey, KeyedCache> (App/Caches.swift:8)")),
      "\(result.standardErrorText)")
  }

  @Test(.isolatedInjections) func graphNodesAreNamedWithTheKeyAndGroupedByFamily() throws {
    let (family, _) = makeFamily(.singleton)
    let consumers = [Consumer(family[42]), Consumer(family[7])]
    consumers.forEach { _ = $0.service }
    let graph = InjectionGraph.capture(roots: consumers)
    let members = graph.nodes.filter { $0.kind == .injection }
    #expect(Set(members.map(\.type)) == ["KeyedStore[42]", "KeyedStore[7]"])
    let familyLabel = try #require(members.first?.family)
    #expect(familyLabel.hasPrefix("InjectionFamily<Int, KeyedStore> (InjectTests/FamilyFixtures.swift:"))
    #expect(members.allSatisfy { $0.family == familyLabel })
    #expect(graph.mermaid.contains("subgraph family"))
    #expect(graph.mermaid.contains("family: InjectionFamily#lt;Int, KeyedStore#gt;"))
    #expect(graph.dot.contains("subgraph cluster_family"))
    let decoded = try JSONDecoder().decode(InjectionGraph.self, from: JSONEncoder().encode(graph))
    #expect(decoded == graph)
  }

  @Test(.isolatedInjections) func aKeyIsEscapedInThePictures() {
    let family = InjectionFamily<String, KeyedStore>(strategy: .singleton) { _ in KeyedStore(0) }
    let consumer = Consumer(family["a\"<b>&#c\nd"])
    _ = consumer.service
    let graph = InjectionGraph.capture(roots: [consumer])
    #expect(graph.nodes.contains { $0.type == "KeyedStore[a\"<b>&#c\nd]" })
    #expect(graph.mermaid.contains("KeyedStore[a#quot;#lt;b#gt;#38;#35;c#10;d]"))
    #expect(graph.dot.contains("KeyedStore[a\\\"<b>&amp;#c\\nd]"))
  }

  /// In a process of its own: the telemetry is the process's.
  @Test(.timeLimit(.minutes(4))) func telemetryNamesTheKey() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let log = await MainActor.run {
        let log = EventLog()
        installTelemetry(log)
        let family = InjectionFamily<Int, KeyedStore>(strategy: .singleton) { KeyedStore($0) }
        _ = Consumer(family[9]).service
        Consumer(family[9]).service = KeyedStore(9, "assigned")
        family[9].rollbackOverride()
        family.rollbackOverride()
        return log
      }
      // The family's events reach the main actor through a hop: they are in once it ran.
      await MainActor.run {
        let names = log.events.map(\.injection)
        precondition(names.contains("Injection<KeyedStore>[9]"), "\(names)")
        precondition(names.contains("InjectionFamily<Int, KeyedStore>"), "\(names)")
        precondition(log.events.contains { $0.kind == .nothingToRollBack && $0.injection.hasPrefix("InjectionFamily") })
        precondition(log.events.contains { $0.kind == .localOverrideSet && $0.injection == "Injection<KeyedStore>[9]" })
      }
    }
  }
}

/// Takes and holds the members of 4,000 keys from `member`: for each of a thousand ids, four
/// equal keys that hash apart.
private func holdMembersOfEqualKeysThatHashApart(_ member: (SaltedKey) -> AnyObject) {
  var members: [AnyObject] = []
  for id in 0..<1_000 {
    for salt in 0..<4 {
      members.append(member(SaltedKey(id: id, salt: salt)))
    }
  }
  withExtendedLifetime(members) {}
}

/// The message that stops the program when the family labeled `family` finds two equal keys
/// of type `SaltedKey` that hash apart.
private func hashDisagreement(of family: String) -> String {
  "\(family): two equal keys of type SaltedKey have different hashes, so the family cannot keep one member per key. "
    + "To fix this, make SaltedKey's hash(into:) combine exactly the properties that its == compares (a synthesized "
    + "Hashable conformance does)."
}

/// A telemetry that keeps every event.
@MainActor private final class EventLog: InjectionTelemetry {
  private(set) var events: [InjectionEvent] = []
  func record(_ event: InjectionEvent) { events.append(event) }
}
