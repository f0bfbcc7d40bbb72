extension Injection {
  /// Replaces the implementation while `operation` runs, in this task and its child tasks only.
  ///
  /// The override is task-local: tests running in parallel can each override the same
  /// injection differently and see only their own. The previous state is restored when
  /// `operation` returns or throws.
  ///
  /// ```swift
  /// @Test @MainActor func searchesWithTheMock() {
  ///   apiClientInjection.withOverride(MockAPIClient()) {
  ///     #expect(UserSearchModel().apiClient is MockAPIClient)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - instance: Builds the replacement; evaluated on the main actor when needed.
  ///   - strategy: The replacement's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ instance: @autoclosure @escaping @MainActor () -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    try withScope(.instance(Boxed(instance)), strategy, at: CodeLocation(fileID: fileID, line: line), operation)
  }

  /// Decorates or replaces the implementation while `operation` runs, in this task and its
  /// child tasks only.
  ///
  /// `transform` receives a new instance from the layer beneath, as with
  /// `override(with:strategy:)` (the closure form).
  ///
  /// - Parameters:
  ///   - transform: Receives a new instance from the layer beneath and returns the one to use.
  ///   - strategy: The layer's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ transform: @escaping @MainActor (T) -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    try withScope(.transform(Boxed(transform)), strategy, at: CodeLocation(fileID: fileID, line: line), operation)
  }

  /// Delegates to another injection while `operation` runs, in this task and its child tasks
  /// only.
  ///
  /// - Parameters:
  ///   - other: The injection to resolve from instead.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ other: Injection<T>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    try withScope(.injection(other), nil, at: CodeLocation(fileID: fileID, line: line), operation)
  }

  /// Replaces the implementation while the asynchronous `operation` runs, in this task and its
  /// child tasks only.
  ///
  /// ```swift
  /// @Test @MainActor func loadsThroughTheMock() async throws {
  ///   let user = try await apiClientInjection.withOverride(MockAPIClient(users: [.sample])) {
  ///     try await LiveUserRepository().user(id: User.sample.id)
  ///   }
  ///   #expect(user == .sample)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - instance: Builds the replacement; evaluated on the main actor when needed.
  ///   - strategy: The replacement's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ instance: @autoclosure @escaping @MainActor () -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await withScope(.instance(Boxed(instance)), strategy, at: CodeLocation(fileID: fileID, line: line), operation)
  }

  /// Decorates or replaces the implementation while the asynchronous `operation` runs, in this
  /// task and its child tasks only.
  ///
  /// - Parameters:
  ///   - transform: Receives a new instance from the layer beneath and returns the one to use.
  ///   - strategy: The layer's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ transform: @escaping @MainActor (T) -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await withScope(.transform(Boxed(transform)), strategy, at: CodeLocation(fileID: fileID, line: line), operation)
  }

  /// Delegates to another injection while the asynchronous `operation` runs, in this task and
  /// its child tasks only.
  ///
  /// - Parameters:
  ///   - other: The injection to resolve from instead.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ other: Injection<T>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await withScope(.injection(other), nil, at: CodeLocation(fileID: fileID, line: line), operation)
  }

  private func withScope<R>(
    _ source: Layer<MainActorDoor<T>>.Source, _ strategy: Strategy?, at location: CodeLocation,
    _ operation: () throws -> R
  ) rethrows -> R {
    try engine.scope(source, strategy: strategy, on: self, at: location).run(operation)
  }

  private func withScope<R>(
    _ source: Layer<MainActorDoor<T>>.Source, _ strategy: Strategy?, at location: CodeLocation,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    try await engine.scope(source, strategy: strategy, on: self, at: location)
      .run(isolation: MainActor.shared, operation)
  }
}
