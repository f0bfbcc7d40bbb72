/// What a family's member knows of its family: which family, and for which key.
///
/// The engine reads it where a family's overrides apply beside the member's own: the test's
/// stacks (``TestOverrides``), a scope's family override (``FamilyScope``), and messages, which
/// name the key.
struct FamilyLink: Sendable {
  /// The family, as worlds and tests key its overrides.
  let identity: FamilyIdentity
  /// The member's key, as the family's closures take it back.
  let key: any Hashable & Sendable
  /// The key as messages and the graph write it: `42`, `general`.
  var keyDescription: String { String(describing: key) }

  /// The key, as a family override keeps the layers it made.
  var hashableKey: FamilyKey { FamilyKey(key) }
}

/// A family's key, erased: equal when the keys are (`==`), never by hash alone.
struct FamilyKey: Hashable, Sendable {
  let key: any Hashable & Sendable

  init(_ key: any Hashable & Sendable) {
    self.key = key
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    AnyHashable(lhs.key) == AnyHashable(rhs.key)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(AnyHashable(key))
  }
}

/// A family's identity: held by its members, its overrides and the worlds that override it, and
/// by nothing of theirs, so that it makes no cycle.
final class FamilyIdentity: Sendable {
  /// Where the family was published.
  let location: CodeLocation
  /// `InjectionFamily<ChatRoom.ID, ChatRoomStore> (Chat/ChatRoomStore.swift:12)`.
  let label: String

  init(label: String, location: CodeLocation) {
    self.label = label
    self.location = location
  }
}
