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
  /// The layers that the family's overrides in tests and scopes made for this member, each with
  /// the override that made it, held weakly: kept by the member, so that they live as long as it
  /// does and no longer, and the family prunes the member only once none of them holds an
  /// instance in any world.
  private let made = Locked<[MadeLayer]>([])

  private struct MadeLayer: Sendable {
    weak var override: (any AnyObject & Sendable)?
    let layer: any AnyObject & Sendable
  }

  /// `key`, a member's, as its family's `Key`, which it is.
  static func key<Key>(_ key: any Hashable & Sendable, as _: Key.Type) -> Key {
    guard let key = key as? Key else {
      preconditionFailure("A member's key is of its family's Key type: \(type(of: key)) is not \(Key.self)")
    }
    return key
  }

  init(identity: FamilyIdentity, key: any Hashable & Sendable) {
    self.identity = identity
    self.key = key
  }

  /// The layer that `override` made for this member, made by `make` the first time.
  func layer(
    madeBy override: any AnyObject & Sendable, _ make: () -> any AnyObject & Sendable
  ) -> any AnyObject & Sendable {
    if let layer = made.withLock({ $0.first { $0.override === override }?.layer }) {
      return layer
    }
    let layer = make()
    // What the layers of released overrides held goes after the lock.
    let (kept, dropped) = made.withLock { made -> (any AnyObject & Sendable, [MadeLayer]) in
      if let existing = made.first(where: { $0.override === override }) {
        return (existing.layer, [])
      }
      let dropped = made.filter { $0.override == nil }
      made.removeAll { $0.override == nil }
      made.append(MadeLayer(override: override, layer: layer))
      return (layer, dropped)
    }
    withExtendedLifetime(dropped) {}
    return kept
  }

  /// The layers that the family's overrides in tests and scopes made for this member.
  var madeLayers: [any AnyObject & Sendable] { made.withLock { $0.map(\.layer) } }
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
