/// Many dependencies of one kind, one for each key: a store per chat room, a player per video, a
/// view model per order; published beside its implementation with a factory that takes the key.
///
/// ```swift
/// public let chatRoomStores = InjectionFamily<ChatRoom.ID, ChatRoomStore>(strategy: .shared) { id in
///   ChatRoomStore(roomID: id)
/// }
///
/// @MainActor final class ChatScreenModel {
///   @Instance var store: ChatRoomStore
///   init(roomID: ChatRoom.ID) { _store = Instance(chatRoomStores[roomID]) }
/// }
/// ```
///
/// `family[key]` is the family's member for that key: a real ``Injection``, so everything that
/// takes an injection takes it (``Instance``, `override(with:)`, `withOverride`, the testing
/// traits, the graph, sessions). Keys are compared with `==`: two unequal keys whose hashes are
/// equal get two members. The strategy applies per key: `.shared` keeps one instance per key
/// while anyone holds it; `.singleton`, one per key for the life of the world (so memory grows
/// with the keys used); `.onDemand`, one per consumer; `.session(_:)`, one per key until the
/// session ends.
///
/// The family keeps a key's member only while something needs it: a consumer, an override of
/// that key, an instance one of its worlds stores (a `.shared` instance still alive, a
/// `.singleton`). The others are pruned as the family is used, so cycling through any number
/// of keys keeps memory flat.
///
/// Override every member with `override(with:)` or a scope,
/// and one member with `family[key].override(with:)`, which wins over the family's overrides;
/// see <doc:StrategiesAndLifetimes#Families>.
///
/// > Important: A key's `hash(into:)` must agree with its `==`, as `Dictionary` requires: the
/// > family keeps its members in one. With a key whose equal values hash differently, equal keys
/// > may get members (and instances) of their own, and as soon as the family's table finds two
/// > equal keys (as it grows, say) it stops the program with a message that names the family
/// > and the key's type: "… two equal keys of type … have different hashes".
@MainActor
public final class InjectionFamily<Key: Hashable & Sendable, T> {
  /// What the family is, written once for both kinds.
  @usableFromInline
  nonisolated let core: FamilyCore<Key, MainActorDoor<T>>

  /// The strategy every member was published with.
  public nonisolated var strategy: Strategy { core.strategy }

  /// A replacement that a launch argument or environment variable applies to every member at
  /// launch, for UI tests and demo builds; the family's form of ``Inject/LaunchOverride``.
  public struct LaunchOverride: Sendable {
    let trigger: LaunchTrigger
    let instance: @MainActor (Key) -> T

    /// Applies `instance` when the process was launched with `argument`.
    ///
    /// - Parameters:
    ///   - argument: The launch argument, such as `-demo-chat`.
    ///   - instance: Builds the replacement for a key, lazily, on the main actor.
    /// - Returns: The launch override.
    public static func argument(_ argument: String, with instance: @escaping @MainActor (Key) -> T) -> Self {
      Self(trigger: .argument(argument), instance: instance)
    }

    /// Applies `instance` when the process was launched with `variable` set.
    ///
    /// - Parameters:
    ///   - variable: The environment variable, such as `DEMO_CHAT`.
    ///   - instance: Builds the replacement for a key, lazily, on the main actor.
    /// - Returns: The launch override.
    public static func environment(_ variable: String, with instance: @escaping @MainActor (Key) -> T) -> Self {
      Self(trigger: .environment(variable), instance: instance)
    }
  }

  /// Publishes a family of dependencies, with the values that previews and tests get by default.
  ///
  /// ```swift
  /// public let chatRoomDrafts = InjectionFamily<ChatRoom.ID, DraftStore>(
  ///   strategy: .shared,
  ///   instance: { id in DraftStore(roomID: id) },
  ///   test: { id in DraftStore(roomID: id, storage: .inMemory) }
  /// )
  /// ```
  ///
  /// Nothing is built here; each member builds lazily, on the main actor, as an ``Injection``
  /// published with the same values for its key would.
  ///
  /// - Parameters:
  ///   - strategy: How long each key's instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance for a key.
  ///   - preview: Builds the instance that Xcode previews get by default for a key.
  ///   - test: Builds the instance that test worlds get by default for a key.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch; the first that applies wins.
  ///   - fileID: Where the family is published; recorded for diagnostics.
  ///   - line: Where the family is published; recorded for diagnostics.
  public nonisolated init(
    strategy: Strategy,
    instance: @escaping @MainActor (Key) -> T,
    preview: (@MainActor (Key) -> T)? = nil,
    test: (@MainActor (Key) -> T)? = nil,
    launchOverrides: [LaunchOverride] = [],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    let location = CodeLocation(fileID: fileID, line: line)
    let core = FamilyCore<Key, MainActorDoor<T>>(
      strategy: strategy, name: "InjectionFamily<\(Key.self), \(T.self)>", location: location,
      publish: { key, link in
        Publication(
          strategy, instance: Boxed { instance(key) }, preview: preview.map { preview in Boxed { preview(key) } },
          test: test.map { test in Boxed { test(key) } },
          launchOverrides: launchOverrides.map { launch in (launch.trigger, Boxed { launch.instance(key) }) },
          at: location, family: link)
      },
      makeInjection: { Injection($0) })
    self.core = core
    // Told on the main actor, where the family's members and table are used: when worlds that
    // stored instances of members end (off the main actor, once it releases what they kept
    // there), and when members build `.shared` instances.
    core.identity.listenOnMainActor { [weak core] note in core?.hear(note) }
  }

  /// Publishes a family of dependencies.
  ///
  /// ```swift
  /// public let chatRoomStores = InjectionFamily<ChatRoom.ID, ChatRoomStore>(strategy: .shared) { id in
  ///   ChatRoomStore(roomID: id)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - strategy: How long each key's instances live and who shares them; see ``Strategy``.
  ///   - fileID: Where the family is published; recorded for diagnostics.
  ///   - line: Where the family is published; recorded for diagnostics.
  ///   - instance: Builds the live instance for a key, lazily, on the main actor.
  public nonisolated convenience init(
    strategy: Strategy,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    instance: @escaping @MainActor (Key) -> T
  ) {
    self.init(strategy: strategy, instance: instance, preview: nil, test: nil, fileID: fileID, line: line)
  }

  /// The member for `key`: the injection that consumers of that key resolve from.
  ///
  /// The same injection for equal keys while anything needs it; made on first use.
  @inlinable
  public subscript(key: Key) -> Injection<T> {
    core.existingMember(for: key) ?? core.member(for: key)
  }

  /// How many members the family keeps now, those that nothing needs any more but that were not
  /// pruned yet included: for tests that it stays bounded.
  package nonisolated var memberCount: Int { core.memberCount }

  /// The family as a strict test and a suite's trait name it.
  package nonisolated var identity: some AnyObject & Sendable { core.identity }
}
