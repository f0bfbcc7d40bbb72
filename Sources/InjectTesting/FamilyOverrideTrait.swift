public import Inject
public import Testing

extension Trait where Self == OverrideTrait {
  /// Replaces every member of a family for the test, or for each test of the suite.
  ///
  /// ```swift
  /// @Test(.overriding(chatRoomStores, with: { id in ChatRoomStore(roomID: id, client: MockChatClient()) }))
  /// @MainActor func showsTheMockMessages() {
  ///   #expect(ChatScreenModel(roomID: 42).store.client is MockChatClient)
  /// }
  /// ```
  ///
  /// Each test runs in its own test world; a member's own override (`family[key]`) wins over
  /// the family's.
  ///
  /// - Parameters:
  ///   - family: The family to override.
  ///   - instance: Builds the replacement for a key; evaluated on the main actor when needed.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: A trait that scopes the override to each test it applies to.
  public static func overriding<Key, T>(
    _ family: InjectionFamily<Key, T>,
    with instance: @escaping @MainActor (Key) -> T,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(family.identity, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await family.withOverride(instance, fileID: fileID, line: line, operation: body)
    }
  }

  /// Decorates or replaces every member of a family for the test, or for each test of the
  /// suite.
  ///
  /// - Parameters:
  ///   - family: The family to override.
  ///   - transform: Receives a key and a new instance for it, and returns the instance to use.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: A trait that scopes the override to each test it applies to.
  public static func overriding<Key, T>(
    _ family: InjectionFamily<Key, T>,
    with transform: @escaping @MainActor (Key, T) -> T,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(family.identity, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await family.withOverride(transform, fileID: fileID, line: line, operation: body)
    }
  }

  /// Replaces one member of a family for the test, or for each test of the suite, wherever the
  /// test is declared.
  ///
  /// ```swift
  /// @Test(.overriding(chatRoomStores, key: 42, with: ChatRoomStore(roomID: 42, client: MockChatClient())))
  /// @MainActor func showsRoom42sMockMessages() {
  ///   #expect(ChatScreenModel(roomID: 42).store.client is MockChatClient)
  /// }
  /// ```
  ///
  /// The same override as `.overriding(family[key], with: instance)`, whose member a free
  /// function's trait cannot name: a main-actor family's subscript is isolated to the main
  /// actor, and a free function's traits are evaluated off it. This form names the member on
  /// the main actor when each test (or suite) runs. It wins over the family's overrides.
  ///
  /// - Parameters:
  ///   - family: The family whose member to override.
  ///   - key: The key of the member to override.
  ///   - instance: Builds the replacement; evaluated on the main actor when needed.
  ///   - strategy: The replacement's strategy; `nil` (the default) keeps the family's.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: A trait that scopes the override to each test it applies to.
  public static func overriding<Key, T>(
    _ family: InjectionFamily<Key, T>,
    key: Key,
    with instance: @autoclosure @escaping @MainActor () -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(family, key: key, at: CodeLocation(fileID: fileID, line: line)) { member, body in
      try await member.withOverride(instance(), strategy: strategy, fileID: fileID, line: line, operation: body)
    }
  }

  /// Decorates or replaces one member of a family for the test, or for each test of the suite,
  /// wherever the test is declared.
  ///
  /// The same override as `.overriding(family[key], with: transform)`, naming the member on the
  /// main actor when each test runs; see `overriding(_:key:with:strategy:fileID:line:)`.
  ///
  /// - Parameters:
  ///   - family: The family whose member to override.
  ///   - key: The key of the member to override.
  ///   - transform: Receives a new instance from the layer beneath and returns the one to use.
  ///   - strategy: The layer's strategy; `nil` (the default) keeps the family's.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: A trait that scopes the override to each test it applies to.
  public static func overriding<Key, T>(
    _ family: InjectionFamily<Key, T>,
    key: Key,
    with transform: @escaping @MainActor (T) -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(family, key: key, at: CodeLocation(fileID: fileID, line: line)) { member, body in
      try await member.withOverride(transform, strategy: strategy, fileID: fileID, line: line, operation: body)
    }
  }

  /// Replaces every member of a sendable family for the test, or for each test of the suite.
  ///
  /// - Parameters:
  ///   - family: The sendable family to override.
  ///   - instance: Builds the replacement for a key, lazily, in each test's world.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: A trait that scopes the override to each test it applies to.
  public static func overriding<Key, T>(
    _ family: SendableInjectionFamily<Key, T>,
    with instance: @escaping @Sendable (Key) -> T,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(family.identity, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await family.withOverride(instance, fileID: fileID, line: line, operation: body)
    }
  }

  /// Decorates or replaces every member of a sendable family for the test, or for each test of
  /// the suite.
  ///
  /// - Parameters:
  ///   - family: The sendable family to override.
  ///   - transform: Receives a key and a new instance for it, and returns the instance to use.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: A trait that scopes the override to each test it applies to.
  public static func overriding<Key, T>(
    _ family: SendableInjectionFamily<Key, T>,
    with transform: @escaping @Sendable (Key, T) -> T,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(family.identity, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await family.withOverride(transform, fileID: fileID, line: line, operation: body)
    }
  }
}
