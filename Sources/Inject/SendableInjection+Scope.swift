@_spi(SendableInjections)
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
    try scope(.instance(instance), strategy ?? self.strategy, at: CodeLocation(fileID: fileID, line: line))
      .runAnywhere(operation)
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
    try scope(.transform(transform), strategy ?? self.strategy, at: CodeLocation(fileID: fileID, line: line))
      .runAnywhere(operation)
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
    try scope(delegatingTo: other, at: CodeLocation(fileID: fileID, line: line)).runAnywhere(operation)
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
    try await scope(.instance(instance), strategy ?? self.strategy, at: CodeLocation(fileID: fileID, line: line))
      .runAnywhere(isolation: isolation, operation)
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
    try await scope(.transform(transform), strategy ?? self.strategy, at: CodeLocation(fileID: fileID, line: line))
      .runAnywhere(isolation: isolation, operation)
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
    try await scope(delegatingTo: other, at: CodeLocation(fileID: fileID, line: line))
      .runAnywhere(isolation: isolation, operation)
  }

  /// A world inside the current task's, where this injection resolves from a layer built by
  /// `source` with `strategy`.
  private func scope(_ source: SendableLayer<T>.Source, _ strategy: Strategy?, at location: CodeLocation) -> World {
    let parent = World.current
    let enclosing = parent?.sendable.overrides ?? []
    let layer = SendableLayer(source, strategy: strategy, location: location, origin: .scoped)
    let scoped = SendableScopedOverride(self, with: layer, above: parent?.sendable.override(of: self))
    return World(sendableScopeIn: parent, sendableOverrides: enclosing.filter { $0.injection !== self } + [scoped])
  }

  /// A world inside the current task's, where this injection delegates to `other`; stops the
  /// program if that closes a loop.
  private func scope(delegatingTo other: SendableInjection<T>, at location: CodeLocation) -> World {
    stopIfLooping(through: other, in: World.current?.sendable)
    return scope(.injection(other), nil, at: location)
  }
}
