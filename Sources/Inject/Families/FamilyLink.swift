/// What a family's member knows of its family: which family, and for which key.
///
/// The engine reads it where a family's overrides apply beside the member's own: the test's
/// stacks (``TestOverrides``), a scope's family override (``FamilyScope``), and messages, which
/// name the key.
///
/// A class, so that a publication's optional link is one word: resolution checks it in every
/// world, for every injection.
final class FamilyLink: Sendable {
  /// The family, as worlds and tests key its overrides.
  let identity: FamilyIdentity
  /// The member's key, as the family's closures take it back.
  let key: any Hashable & Sendable
  /// The key as messages and the graph write it: `42`, `general`.
  var keyDescription: String { String(describing: key) }

  /// The key, as a family override keeps the layers it made.
  var hashableKey: FamilyKey { FamilyKey(key) }

  init(identity: FamilyIdentity, key: any Hashable & Sendable) {
    self.identity = identity
    self.key = key
  }
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
  /// `InjectionFamily<Int, ChatRoomStore>`.
  let name: String

  init(name: String, location: CodeLocation) {
    self.name = name
    self.location = location
  }

  /// `InjectionFamily<Int, ChatRoomStore> (Chat/ChatRoomStore.swift:12)`.
  var label: String { "\(name) (\(location))" }
}
