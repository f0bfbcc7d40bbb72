extension SendableInjectionFamily {
  /// Replaces every member's implementation for every consumer that resolves from now on.
  ///
  /// ```swift
  /// thumbnailCaches.override(with: { id in ThumbnailCache(albumID: id, storage: .inMemory) })
  /// defer { thumbnailCaches.rollbackOverride() }
  /// ```
  ///
  /// Pushes an override on the family's stack, the current test's in a test world, else the
  /// global one; ``rollbackOverride(fileID:line:)`` pops it. Each member gets a layer of its own
  /// for its key, with the family's strategy, beneath the member's own overrides: an override of
  /// one key (`family[key].override(with:)`) wins over the family's, whichever was pushed first.
  ///
  /// - Parameters:
  ///   - instance: Builds the replacement for a key; evaluated lazily, on the consumer's thread.
  ///   - fileID: Where the override is pushed; recorded for diagnostics.
  ///   - line: Where the override is pushed; recorded for diagnostics.
  ///   - function: The function that pushes it: in a test world, one pushed by an initializer
  ///     (a suite's `init()`) is set-up, which a strict test does not report unused.
  public func override(
    with instance: @escaping @Sendable (Key) -> T, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) {
    core.push(Self.source(instance), at: CodeLocation(fileID: fileID, line: line), in: function)
  }

  /// Decorates or replaces every member's implementation for every consumer that resolves from
  /// now on.
  ///
  /// `transform` receives the key and a new instance from the layer beneath, as an injection's
  /// decorator does; see `override(with:)`.
  ///
  /// - Parameters:
  ///   - transform: Receives a key and a new instance for it, and returns the instance to use.
  ///   - fileID: Where the override is pushed; recorded for diagnostics.
  ///   - line: Where the override is pushed; recorded for diagnostics.
  ///   - function: The function that pushes it; see
  ///     `override(with:)`.
  public func override(
    with transform: @escaping @Sendable (Key, T) -> T, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) {
    core.push(Self.source(transform), at: CodeLocation(fileID: fileID, line: line), in: function)
  }

  /// Pops the family's most recent override, restoring the one beneath it.
  ///
  /// As an injection's rollback: every instance that the stack's worlds stored while it was in
  /// place, in any injection, is dropped, so a `.singleton` built with a member's mock is built
  /// anew; what consumers hold stays theirs. With none to roll back, nothing changes (debug
  /// builds warn, and the telemetry records it).
  ///
  /// - Parameters:
  ///   - fileID: Where the rollback is made; recorded for diagnostics.
  ///   - line: Where the rollback is made; recorded for diagnostics.
  public func rollbackOverride(fileID: StaticString = #fileID, line: UInt = #line) {
    core.rollback(leaving: { $0 - 1 }, at: CodeLocation(fileID: fileID, line: line))
  }

  /// Pops every override of the family, restoring the published configuration of every member
  /// (the members' own overrides stay).
  ///
  /// - Parameters:
  ///   - fileID: Where the rollback is made; recorded for diagnostics.
  ///   - line: Where the rollback is made; recorded for diagnostics.
  public func rollbackAllOverrides(fileID: StaticString = #fileID, line: UInt = #line) {
    core.rollback(leaving: { _ in 0 }, at: CodeLocation(fileID: fileID, line: line))
  }

  /// The number of the family's overrides on the stack that `override(with:)` pushes onto here.
  ///
  /// The current test's, in a test world, else the global one. The members' own are not counted.
  public var overrideCount: Int { core.overrideCount }

  /// Replaces every member's implementation while `operation` runs, in this task and its child
  /// tasks only.
  ///
  /// ```swift
  /// thumbnailCaches.withOverride(
  ///   { id in ThumbnailCache(albumID: id, storage: .inMemory) },
  ///   operation: {
  ///     #expect(thumbnailCaches[7].resolve().storage == .inMemory)
  ///   })
  /// ```
  ///
  /// A member's own scoped override wins over the family's.
  ///
  /// - Parameters:
  ///   - instance: Builds the replacement for a key; evaluated lazily, on the consumer's thread.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ instance: @escaping @Sendable (Key) -> T, fileID: StaticString = #fileID, line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    try core.scope(Self.source(instance), decorates: false, at: CodeLocation(fileID: fileID, line: line))
      .run(operation)
  }

  /// Decorates or replaces every member's implementation while `operation` runs, in this task
  /// and its child tasks only.
  ///
  /// - Parameters:
  ///   - transform: Receives a key and a new instance for it, and returns the instance to use.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ transform: @escaping @Sendable (Key, T) -> T, fileID: StaticString = #fileID, line: UInt = #line,
    operation: () throws -> R
  ) rethrows -> R {
    try core.scope(Self.source(transform), decorates: true, at: CodeLocation(fileID: fileID, line: line))
      .run(operation)
  }

  /// Replaces every member's implementation while the asynchronous `operation` runs, in this
  /// task and its child tasks only.
  ///
  /// - Parameters:
  ///   - instance: Builds the replacement for a key; evaluated lazily, on the consumer's thread.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - isolation: The caller's isolation, where `operation` runs.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ instance: @escaping @Sendable (Key) -> T, fileID: StaticString = #fileID, line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await core.scope(Self.source(instance), decorates: false, at: CodeLocation(fileID: fileID, line: line))
      .run(isolation: isolation, operation)
  }

  /// Decorates or replaces every member's implementation while the asynchronous `operation`
  /// runs, in this task and its child tasks only.
  ///
  /// - Parameters:
  ///   - transform: Receives a key and a new instance for it, and returns the instance to use.
  ///   - fileID: Where the override is made; recorded for diagnostics.
  ///   - line: Where the override is made; recorded for diagnostics.
  ///   - isolation: The caller's isolation, where `operation` runs.
  ///   - operation: The code that sees the override.
  /// - Returns: What `operation` returns.
  public func withOverride<R>(
    _ transform: @escaping @Sendable (Key, T) -> T, fileID: StaticString = #fileID, line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await core.scope(Self.source(transform), decorates: true, at: CodeLocation(fileID: fileID, line: line))
      .run(isolation: isolation, operation)
  }

  /// The layer source of an override that builds a member's instance from its key.
  private static func source(
    _ instance: @escaping @Sendable (Key) -> T
  ) -> @Sendable (Key) -> Layer<SendableDoor<T>>.Source {
    { key in .instance(Boxed { @Sendable in instance(key) }) }
  }

  /// The layer source of an override that decorates a member's instance, given its key.
  private static func source(
    _ transform: @escaping @Sendable (Key, T) -> T
  ) -> @Sendable (Key) -> Layer<SendableDoor<T>>.Source {
    { key in .transform(Boxed { @Sendable in transform(key, $0) }) }
  }
}
