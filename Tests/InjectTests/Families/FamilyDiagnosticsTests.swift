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

/// A telemetry that keeps every event.
@MainActor private final class EventLog: InjectionTelemetry {
  private(set) var events: [InjectionEvent] = []
  func record(_ event: InjectionEvent) { events.append(event) }
}
