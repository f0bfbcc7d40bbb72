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
  /// The layers that the family's overrides in tests and scopes made for this member.
  ///
  /// By the identity of the override that made each, held weakly: kept by the member while the
  /// override lives (its release drops them, ``dropLayer(madeBy:)``), and the family prunes the
  /// member only once none of them holds an instance in any world. By identity, so that a member
  /// of a test that pushed thousands of family overrides finds each override's layer at once.
  private let made = Locked<[ObjectIdentifier: MadeLayer]>([:])

  private struct MadeLayer: Sendable {
    weak var override: (any AnyObject & Sendable)?
    let layer: any AnyObject & Sendable
  }

  init(identity: FamilyIdentity, key: any Hashable & Sendable) {
    self.identity = identity
    self.key = key
  }

  /// The layer that `override` made for this member; `layer`, kept from now on, if it made none.
  ///
  /// Also returns the layer it replaced, one of an override released and not yet dropped, for the
  /// caller to release once it holds no lock: its closures are the user's.
  func layer(
    madeBy override: any AnyObject & Sendable, orKeep layer: any AnyObject & Sendable
  ) -> (layer: any AnyObject & Sendable, replaced: (any AnyObject & Sendable)?) {
    made.withLock { made in
      // An entry whose override was released is not this one's: the override drops it first.
      if let existing = made[ObjectIdentifier(override)], existing.override != nil {
        return (existing.layer, nil)
      }
      let replaced = made.updateValue(MadeLayer(override: override, layer: layer), forKey: ObjectIdentifier(override))
      return (layer, replaced?.layer)
    }
  }

  /// The layer that `override` made for this member, if it made one.
  func layer(madeBy override: any AnyObject & Sendable) -> (any AnyObject & Sendable)? {
    made.withLock { made in
      made[ObjectIdentifier(override)].flatMap { $0.override === override ? $0.layer : nil }
    }
  }

  /// The layers that the family's overrides in tests and scopes made for this member.
  var madeLayers: [any AnyObject & Sendable] { made.withLock { $0.values.map(\.layer) } }

  /// Drops the layer that the override `identifier` names made, if any: the override's `deinit`
  /// calls it, so that a member that outlives a test or a scope keeps nothing of it (its closures
  /// and what they captured).
  func dropLayer(madeBy identifier: ObjectIdentifier) {
    let dropped = made.withLock { $0.removeValue(forKey: identifier) }
    // Released after the lock: a layer's release may run a `deinit` of the user's.
    withExtendedLifetime(dropped) {}
  }
}

/// A family's identity: held by its members, its overrides and the worlds that override it, and
/// by nothing of theirs, so that it makes no cycle.
final class FamilyIdentity: Sendable {
  /// Where the family was published.
  let location: CodeLocation
  /// `InjectionFamily<Int, ChatRoomStore>`.
  let name: String

  /// The family's table of members, told of what may leave members that nothing needs: a
  /// sendable family's from any thread, a main-actor family's on the main actor.
  ///
  /// Closures that hold the family's core weakly: the core holds this identity, and a member's
  /// layers hold it too, through their link, after the family is released.
  private let listeners = Locked(Listeners())

  private struct Listeners: Sendable {
    var anyThread: (@Sendable (FamilyNote) -> Void)?
    var mainActor: (@MainActor @Sendable (FamilyNote) -> Void)?
  }

  init(name: String, location: CodeLocation) {
    self.name = name
    self.location = location
  }

  /// Makes `listener`, a sendable family's, the one told of notes, from any thread.
  func listen(_ listener: @escaping @Sendable (FamilyNote) -> Void) {
    listeners.withLock { $0.anyThread = listener }
  }

  /// Makes `listener`, a main-actor family's, the one told of notes, on the main actor.
  func listenOnMainActor(_ listener: @escaping @MainActor @Sendable (FamilyNote) -> Void) {
    listeners.withLock { $0.mainActor = listener }
  }

  /// Tells a sendable family `note`.
  func tell(_ note: FamilyNote) {
    listeners.withLock { $0.anyThread }?(note)
  }

  /// Tells a main-actor family `note`.
  @MainActor
  func tellOnMainActor(_ note: FamilyNote) {
    listeners.withLock { $0.mainActor }?(note)
  }

  /// `InjectionFamily<Int, ChatRoomStore> (Chat/ChatRoomStore.swift:12)`.
  var label: String { "\(name) (\(location))" }
}

/// A family's `Key`, as a member's link holds it: erased.
enum FamilyKey<Key: Hashable & Sendable> {
  /// `source`, taking a member's key as its link holds it.
  static func erasing<Result>(
    _ source: @escaping @Sendable (Key) -> Result
  ) -> @Sendable (any Hashable & Sendable) -> Result {
    { key in
      guard let key = key as? Key else {
        preconditionFailure("A member's key is of its family's Key type: \(type(of: key)) is not \(Key.self)")
      }
      return source(key)
    }
  }
}

/// What a family's identity tells its table of members: what may have left members that nothing
/// needs any more, which the table then prunes, amortized (``FamilyCore/hear(_:)``).
enum FamilyNote: Sendable {
  /// Worlds that kept this many slots of the members' layers have ended, and released them.
  case slotsEnded(Int)
  /// A member built a `.shared` instance: one of those that die unseen, as their last holder
  /// lets them go.
  case sharedBuilt
}
