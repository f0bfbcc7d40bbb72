import Inject
import InjectTesting
import Testing

// A main-actor family's member overridden by a trait that names the family and the key: on a
// free function, whose traits are evaluated off the main actor, where `rooms[42]` cannot be
// named, and on a suite, where the override is the suite's set-up.

@Test(.overriding(rooms, key: 42, with: Room("mock 42")))
@MainActor func aFreeFunctionsTraitOverridesOneMember() {
  let first = RoomReader(42).room
  #expect(first.name == "mock 42")
  // The family's strategy, `.shared`: every consumer of the key gets the override's instance.
  #expect(RoomReader(42).room === first)
  #expect(rooms[42].resolve() === first)
  #expect(RoomReader(7).room.name == "room 7")
}

@Test(.overriding(rooms, key: 42, with: { Room("decorated \($0.name)") }))
@MainActor func aFreeFunctionsTraitDecoratesOneMember() {
  #expect(RoomReader(42).room.name == "decorated room 42")
  #expect(RoomReader(7).room.name == "room 7")
}

@Test(.overriding(rooms, key: 42, with: Room("mock 42"), strategy: .onDemand))
@MainActor func aFreeFunctionsTraitTakesAStrategy() {
  #expect(RoomReader(42).room !== RoomReader(42).room)
}

@Test(.overriding(rooms, with: { Room("family \($0)") }), .overriding(rooms, key: 42, with: Room("mock 42")))
@MainActor func theMembersTraitWinsOverTheFamilys() {
  #expect(RoomReader(42).room.name == "mock 42")
  #expect(RoomReader(7).room.name == "family 7")
}

@Test(.overriding(rooms, key: 42, with: Room("mock 42")))
func aNonisolatedFreeFunctionGetsTheOverride() async {
  #expect(await MainActor.run { RoomReader(42).room.name } == "mock 42")
}

@Suite(.isolatedInjections(strict: true), .overriding(rooms, key: 1, with: Room("suite 1")))
@MainActor struct FamilyMemberSuiteOverrideTests {
  @Test func aTestSeesTheSuitesOverride() {
    #expect(RoomReader(1).room.name == "suite 1")
  }

  // Strict: the suite's override, its set-up, is not reported unused by a test that never
  // resolves it.
  @Test func aTestThatNeverTouchesTheMemberIsNotReported() {
    #expect(Bool(true))
  }

  @Test(.overriding(rooms, key: 1, with: Room("test 1")))
  func theTestsTraitWinsOverTheSuites() {
    #expect(RoomReader(1).room.name == "test 1")
  }
}

final class Room: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private let rooms = InjectionFamily<Int, Room>(strategy: .shared) { id in Room("room \(id)") }

@MainActor private final class RoomReader {
  @Instance var room: Room
  init(_ key: Int) { _room = Instance(rooms[key]) }
}
