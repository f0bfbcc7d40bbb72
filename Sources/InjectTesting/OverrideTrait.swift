public import Inject
public import Testing

/// A Swift Testing trait that overrides an injection for one test, or for every test of a suite.
///
/// Each test runs in its own test world, as with the `.isolatedInjections` trait, with the
/// override applied there: tests running in parallel can override the same injection
/// differently and each sees only its own, through every dependent the test resolves. Create it
/// with `.overriding(_:with:)`:
///
/// ```swift
/// @Test(.overriding(apiClientInjection, with: MockAPIClient(users: [])))
/// @MainActor func showsWhyTheUserCouldNotBeLoaded() async {
///   // …
/// }
/// ```
public struct OverrideTrait: TestTrait, SuiteTrait, TestScoping {
  private let scope: @Sendable (@Sendable () async throws -> Void) async throws -> Void
  /// Runs a suite with the injection overridden, and where the trait was applied, marked as the
  /// suite's set-up.
  private let suite: @Sendable (@Sendable () async throws -> Void) async throws -> Void

  /// A trait that overrides `overridden` (an injection of either kind, or a family), applied at
  /// `location`: each test runs in a test world of its own, inside the scope that `override`
  /// opens around it.
  init(
    _ overridden: some AnyObject & Sendable, at location: CodeLocation,
    _ override: @escaping @Sendable (@Sendable () async throws -> Void) async throws -> Void
  ) {
    let site = SuiteSetUp.Site(overridden, at: location)
    self.init(suite: { body in try await withSuiteSetUpOverride(site, operation: body) }, override)
  }

  /// A trait that overrides `family[key]`, a main-actor family's member, applied at `location`:
  /// named on the main actor when a test or a suite runs, so that a trait evaluated off the main
  /// actor (a free function's) can take it.
  init<Key, T>(
    _ family: InjectionFamily<Key, T>, key: Key, at location: CodeLocation,
    _ override: @escaping @Sendable (Injection<T>, @Sendable () async throws -> Void) async throws -> Void
  ) {
    let overridden: @MainActor @Sendable () -> Injection<T> = { family[key] }
    self.init(
      suite: { body in
        // The suite holds the member while its tests run, so that each test names the same
        // injection as the suite's set-up does (a family prunes a member that nothing holds).
        let injection = await overridden()
        defer { withExtendedLifetime(injection) {} }
        try await withSuiteSetUpOverride(SuiteSetUp.Site(injection, at: location), operation: body)
      },
      { body in try await override(await overridden(), body) })
  }

  private init(
    suite: @escaping @Sendable (@Sendable () async throws -> Void) async throws -> Void,
    _ override: @escaping @Sendable (@Sendable () async throws -> Void) async throws -> Void
  ) {
    self.suite = suite
    self.scope = { body in
      try await withIsolatedInjections { try await override(body) }
    }
  }

  /// On a suite, the override applies to each of its tests.
  public var isRecursive: Bool { true }

  /// Scopes each test case with the override, and, on a suite, the suite too.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    test.isSuite || testCase != nil ? self : nil
  }

  /// Runs `function` with the override in place; around a suite, marks the override its tests
  /// get as the suite's set-up, which a strict test does not report unused.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    if test.isSuite {
      try await suite(function)
    } else {
      try await scopingEachTestCase(testCase, function, in: scope)
    }
  }
}

extension Trait where Self == OverrideTrait {
  /// Replaces an injection's implementation for the test, or for each test of the suite.
  ///
  /// ```swift
  /// @Test(.overriding(apiClientInjection, with: MockAPIClient()))
  /// @MainActor func searchesWithTheMock() {
  ///   #expect(UserSearchModel().apiClient is MockAPIClient)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - injection: The injection to override.
  ///   - instance: Builds the replacement; evaluated on the main actor when needed.
  ///   - strategy: The replacement's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: A trait that scopes the override to each test it applies to.
  public static func overriding<T>(
    _ injection: Injection<T>,
    with instance: @autoclosure @escaping @MainActor () -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(injection, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await injection.withOverride(instance(), strategy: strategy, fileID: fileID, line: line, operation: body)
    }
  }

  /// Decorates or replaces an injection's implementation for the test, or for each test of
  /// the suite.
  ///
  /// - Parameters:
  ///   - injection: The injection to override.
  ///   - transform: Receives a new instance from the layer beneath and returns the one to use.
  ///   - strategy: The layer's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: A trait that scopes the override to each test it applies to.
  public static func overriding<T>(
    _ injection: Injection<T>,
    with transform: @escaping @MainActor (T) -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(injection, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await injection.withOverride(transform, strategy: strategy, fileID: fileID, line: line, operation: body)
    }
  }

  /// Makes an injection delegate to another for the test, or for each test of the suite.
  ///
  /// - Parameters:
  ///   - injection: The injection to override.
  ///   - other: The injection to resolve from instead.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: A trait that scopes the override to each test it applies to.
  public static func overriding<T>(
    _ injection: Injection<T>,
    with other: Injection<T>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(injection, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await injection.withOverride(other, fileID: fileID, line: line, operation: body)
    }
  }
}

extension Trait where Self == OverrideTrait {
  /// Runs each test in its own test world with the sendable `injection` replaced by `instance`.
  ///
  /// ```swift
  /// @Test(.overriding(imageClientInjection, with: MockImageClient()))
  /// func loadsThroughTheMock() async throws {
  ///   #expect(try await ImageLoader().image(for: url) == MockImageClient.image)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - injection: The sendable injection to override.
  ///   - instance: Builds the replacement, lazily, in each test's world.
  ///   - strategy: The replacement's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: The trait.
  public static func overriding<T>(
    _ injection: SendableInjection<T>,
    with instance: @autoclosure @escaping @Sendable () -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(injection, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await injection.withOverride(instance(), strategy: strategy, fileID: fileID, line: line, operation: body)
    }
  }

  /// Runs each test in its own test world with the sendable `injection` decorated by
  /// `transform`.
  ///
  /// - Parameters:
  ///   - injection: The sendable injection to override.
  ///   - transform: Receives a new instance from the configuration beneath and returns the
  ///     instance to use.
  ///   - strategy: The layer's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: The trait.
  public static func overriding<T>(
    _ injection: SendableInjection<T>,
    with transform: @escaping @Sendable (T) -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(injection, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await injection.withOverride(transform, strategy: strategy, fileID: fileID, line: line, operation: body)
    }
  }

  /// Runs each test in its own test world with the sendable `injection` delegating to `other`.
  ///
  /// - Parameters:
  ///   - injection: The sendable injection to override.
  ///   - other: The injection to resolve from instead.
  ///   - fileID: Where the trait is applied; recorded for diagnostics.
  ///   - line: Where the trait is applied; recorded for diagnostics.
  /// - Returns: The trait.
  public static func overriding<T>(
    _ injection: SendableInjection<T>,
    with other: SendableInjection<T>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    Self(injection, at: CodeLocation(fileID: fileID, line: line)) { body in
      try await injection.withOverride(other, fileID: fileID, line: line, operation: body)
    }
  }
}
