/// Many sendable dependencies of one kind, one for each key, resolved from any isolation: the
/// sendable counterpart of ``InjectionFamily``.
///
/// ```swift
/// public let thumbnailCaches = SendableInjectionFamily<Album.ID, ThumbnailCache>(strategy: .shared) { id in
///   ThumbnailCache(albumID: id)
/// }
///
/// actor AlbumLoader {
///   @SendableInstance var cache: ThumbnailCache
///   init(albumID: Album.ID) { _cache = SendableInstance(thumbnailCaches[albumID]) }
/// }
/// ```
///
/// `family[key]` is a real ``SendableInjection``, from any thread; the family's members, its
/// lifetimes per key, its pruning and its overrides are ``InjectionFamily``'s, from the same
/// code.
///
/// > Important: A key's `hash(into:)` must agree with its `==`, as `Dictionary` requires; see
/// > ``InjectionFamily``.
public final class SendableInjectionFamily<Key: Hashable & Sendable, T: Sendable>: Sendable {
  /// What the family is, written once for both kinds.
  @usableFromInline
  let core: FamilyCore<Key, SendableDoor<T>>

  /// The strategy every member was published with.
  public var strategy: Strategy { core.strategy }

  /// A replacement that a launch argument or environment variable applies to every member at
  /// launch; the family's form of ``SendableLaunchOverride``.
  public struct LaunchOverride: Sendable {
    let trigger: LaunchTrigger
    let instance: @Sendable (Key) -> T

    /// Applies `instance` when the process was launched with `argument`.
    ///
    /// - Parameters:
    ///   - argument: The launch argument, such as `-demo-thumbnails`.
    ///   - instance: Builds the replacement for a key, lazily.
    /// - Returns: The launch override.
    public static func argument(_ argument: String, with instance: @escaping @Sendable (Key) -> T) -> Self {
      Self(trigger: .argument(argument), instance: instance)
    }

    /// Applies `instance` when the process was launched with `variable` set.
    ///
    /// - Parameters:
    ///   - variable: The environment variable, such as `DEMO_THUMBNAILS`.
    ///   - instance: Builds the replacement for a key, lazily.
    /// - Returns: The launch override.
    public static func environment(_ variable: String, with instance: @escaping @Sendable (Key) -> T) -> Self {
      Self(trigger: .environment(variable), instance: instance)
    }
  }

  /// Publishes a family of sendable dependencies, with the values that previews and tests get by
  /// default.
  ///
  /// - Parameters:
  ///   - strategy: How long each key's instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance for a key, lazily, on the consumer's thread.
  ///   - preview: Builds the instance that Xcode previews get by default for a key.
  ///   - test: Builds the instance that test worlds get by default for a key.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch; the first that applies wins.
  ///   - fileID: Where the family is published; recorded for diagnostics.
  ///   - line: Where the family is published; recorded for diagnostics.
  public init(
    strategy: Strategy,
    instance: @escaping @Sendable (Key) -> T,
    preview: (@Sendable (Key) -> T)? = nil,
    test: (@Sendable (Key) -> T)? = nil,
    launchOverrides: [LaunchOverride] = [],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    let location = CodeLocation(fileID: fileID, line: line)
    let core = FamilyCore<Key, SendableDoor<T>>(
      strategy: strategy, name: "SendableInjectionFamily<\(Key.self), \(T.self)>", location: location,
      publish: { key, link in
        Publication(
          strategy, instance: Boxed { instance(key) }, preview: preview.map { preview in Boxed { preview(key) } },
          test: test.map { test in Boxed { test(key) } },
          launchOverrides: launchOverrides.map { launch in (launch.trigger, Boxed { launch.instance(key) }) },
          at: location, family: link)
      },
      makeInjection: { SendableInjection($0) })
    self.core = core
    // Told from any thread: when worlds that stored instances of members end, and when members
    // build `.shared` instances.
    core.identity.listen { [weak core] note in core?.hear(note) }
  }

  /// Publishes a family of sendable dependencies.
  ///
  /// - Parameters:
  ///   - strategy: How long each key's instances live and who shares them; see ``Strategy``.
  ///   - fileID: Where the family is published; recorded for diagnostics.
  ///   - line: Where the family is published; recorded for diagnostics.
  ///   - instance: Builds the live instance for a key, lazily, on the consumer's thread.
  public convenience init(
    strategy: Strategy,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    instance: @escaping @Sendable (Key) -> T
  ) {
    self.init(strategy: strategy, instance: instance, preview: nil, test: nil, fileID: fileID, line: line)
  }

  /// The member for `key`: the injection that consumers of that key resolve from, from any
  /// thread.
  @inlinable
  public subscript(key: Key) -> SendableInjection<T> {
    core.existingMember(for: key) ?? core.member(for: key)
  }

  /// How many members the family keeps now, those that nothing needs any more but that were not
  /// pruned yet included: for tests that it stays bounded.
  package var memberCount: Int { core.memberCount }

  /// The family as a strict test and a suite's trait name it.
  package var identity: some AnyObject & Sendable { core.identity }
}
