extension SendableInjection {
  /// Replaces the implementation for every consumer that resolves from now on, on any thread.
  ///
  /// Pushes a layer on this injection's override stack; ``rollbackOverride(fileID:line:)``
  /// pops it again. The replacement is built lazily, when a consumer needs a new instance under
  /// `strategy`. Pushes from several tasks at once are all kept, in the order they were made.
  ///
  /// - Parameters:
  ///   - instance: Builds the replacement, on the thread of the consumer that needs it.
  ///   - strategy: The replacement's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the override is pushed; recorded for diagnostics.
  ///   - line: Where the override is pushed; recorded for diagnostics.
  ///   - function: The function that pushes it: in a test world, one pushed by an initializer
  ///     (a suite's `init()`, its set-up) is set-up, which a strict test does not report unused.
  public func override(
    with instance: @autoclosure @escaping @Sendable () -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    function: StaticString = #function
  ) {
    engine.push(
      .instance(Boxed(instance)), strategy: strategy, on: self, at: CodeLocation(fileID: fileID, line: line),
      in: function)
  }

  /// Decorates or replaces the implementation for every consumer that resolves from now on.
  ///
  /// Whenever the layer needs a new instance under `strategy`, it asks the layer beneath for a
  /// new one and passes it to `transform`, so decorators compose.
  ///
  /// - Parameters:
  ///   - transform: Receives a new instance from the layer beneath and returns the instance
  ///     to use.
  ///   - strategy: The layer's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the override is pushed; recorded for diagnostics.
  ///   - line: Where the override is pushed; recorded for diagnostics.
  ///   - function: The function that pushes it: in a test world, one pushed by an initializer
  ///     (a suite's `init()`, its set-up) is set-up, which a strict test does not report unused.
  public func override(
    with transform: @escaping @Sendable (T) -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    function: StaticString = #function
  ) {
    engine.push(
      .transform(Boxed(transform)), strategy: strategy, on: self, at: CodeLocation(fileID: fileID, line: line),
      in: function)
  }

  /// Delegates to another injection, with its strategy, storage and overrides, for every
  /// consumer that resolves from now on.
  ///
  /// Overriding an injection with itself, or closing a loop (A → B → A), stops the program with
  /// a message naming both injections.
  ///
  /// - Parameters:
  ///   - other: The injection to resolve from instead.
  ///   - fileID: Where the override is pushed; recorded for diagnostics.
  ///   - line: Where the override is pushed; recorded for diagnostics.
  ///   - function: The function that pushes it: in a test world, one pushed by an initializer
  ///     (a suite's `init()`, its set-up) is set-up, which a strict test does not report unused.
  public func override(
    with other: SendableInjection<T>, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) {
    engine.push(.injection(other), strategy: nil, on: self, at: CodeLocation(fileID: fileID, line: line), in: function)
  }

  /// Pops the most recent override, restoring the layer beneath it.
  ///
  /// Every instance that any injection, of either kind, stored in the global world while the
  /// layer was in place is dropped: a `.singleton` built with the mock is built anew by its
  /// next consumer. Instances stored
  /// before the push keep their identity. With no override to roll back, nothing changes.
  ///
  /// - Parameters:
  ///   - fileID: Where the rollback is made; recorded for diagnostics.
  ///   - line: Where the rollback is made; recorded for diagnostics.
  public func rollbackOverride(fileID: StaticString = #fileID, line: UInt = #line) {
    engine.rollback(of: self, leaving: { $0 - 1 }, at: CodeLocation(fileID: fileID, line: line))
  }

  /// Pops every override, restoring the published configuration.
  ///
  /// - Parameters:
  ///   - fileID: Where the rollback is made; recorded for diagnostics.
  ///   - line: Where the rollback is made; recorded for diagnostics.
  public func rollbackAllOverrides(fileID: StaticString = #fileID, line: UInt = #line) {
    engine.rollback(of: self, leaving: { _ in 0 }, at: CodeLocation(fileID: fileID, line: line))
  }

  /// The number of overrides on the stack that `override(with:)` pushes onto here: the current
  /// test's, in a test world, else the global one.
  public var overrideCount: Int {
    engine.overrideCount(of: self)
  }
}
