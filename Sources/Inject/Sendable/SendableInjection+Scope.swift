extension SendableInjection {
  /// Runs `operation` with this injection replaced by `instance`, in a new world: the current
  /// task's and its child tasks', on any thread.
  ///
  /// What every injection resolves inside the scope is kept in the scope's world, never in the
  /// global layers, and goes with it; other tasks never see the override.
  ///
  /// ```swift
  /// let image = try imageClientInjection.withOverride(MockImageClient()) {
  ///   try ImageCache.shared.image(for: url)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - instance: Builds the replacement, lazily.
  ///   - strategy: The replacement's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the scope is opened; recorded for diagnostics.
  ///   - line: Where the scope is opened; recorded for diagnostics.
  ///   - operation: The code that resolves in the new world.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ instance: @autoclosure @escaping @Sendable () -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    try scope(.instance(Boxed(instance)), strategy, at: CodeLocation(fileID: fileID, line: line)).run(operation)
  }

  /// Runs `operation` with this injection decorated by `transform`, in a new world.
  ///
  /// - Parameters:
  ///   - transform: Receives a new instance from the configuration beneath the scope and
  ///     returns the instance to use.
  ///   - strategy: The layer's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the scope is opened; recorded for diagnostics.
  ///   - line: Where the scope is opened; recorded for diagnostics.
  ///   - operation: The code that resolves in the new world.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ transform: @escaping @Sendable (T) -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    try scope(.transform(Boxed(transform)), strategy, at: CodeLocation(fileID: fileID, line: line)).run(operation)
  }

  /// Runs `operation` with this injection delegating to `other`, in a new world.
  ///
  /// - Parameters:
  ///   - other: The injection to resolve from instead.
  ///   - fileID: Where the scope is opened; recorded for diagnostics.
  ///   - line: Where the scope is opened; recorded for diagnostics.
  ///   - operation: The code that resolves in the new world.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ other: SendableInjection<T>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    try scope(.injection(other), nil, at: CodeLocation(fileID: fileID, line: line)).run(operation)
  }

  /// Runs the asynchronous `operation` with this injection replaced by `instance`, in a new
  /// world that its child tasks inherit.
  ///
  /// - Parameters:
  ///   - instance: Builds the replacement, lazily.
  ///   - strategy: The replacement's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the scope is opened; recorded for diagnostics.
  ///   - line: Where the scope is opened; recorded for diagnostics.
  ///   - isolation: The caller's isolation, where `operation` runs.
  ///   - operation: The code that resolves in the new world.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ instance: @autoclosure @escaping @Sendable () -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await scope(.instance(Boxed(instance)), strategy, at: CodeLocation(fileID: fileID, line: line))
      .run(isolation: isolation, operation)
  }

  /// Runs the asynchronous `operation` with this injection decorated by `transform`, in a new
  /// world that its child tasks inherit.
  ///
  /// - Parameters:
  ///   - transform: Receives a new instance from the configuration beneath the scope and
  ///     returns the instance to use.
  ///   - strategy: The layer's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the scope is opened; recorded for diagnostics.
  ///   - line: Where the scope is opened; recorded for diagnostics.
  ///   - isolation: The caller's isolation, where `operation` runs.
  ///   - operation: The code that resolves in the new world.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ transform: @escaping @Sendable (T) -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await scope(.transform(Boxed(transform)), strategy, at: CodeLocation(fileID: fileID, line: line))
      .run(isolation: isolation, operation)
  }

  /// Runs the asynchronous `operation` with this injection delegating to `other`, in a new
  /// world that its child tasks inherit.
  ///
  /// - Parameters:
  ///   - other: The injection to resolve from instead.
  ///   - fileID: Where the scope is opened; recorded for diagnostics.
  ///   - line: Where the scope is opened; recorded for diagnostics.
  ///   - isolation: The caller's isolation, where `operation` runs.
  ///   - operation: The code that resolves in the new world.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ other: SendableInjection<T>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await scope(.injection(other), nil, at: CodeLocation(fileID: fileID, line: line))
      .run(isolation: isolation, operation)
  }

  /// A world inside the current task's, where this injection resolves from a layer built by
  /// `source` with `strategy` (`nil`: the published one).
  private func scope(
    _ source: Layer<SendableDoor<T>>.Source, _ strategy: Strategy?, at location: CodeLocation
  ) -> World {
    engine.scope(source, strategy: strategy, on: self, at: location)
  }
}
