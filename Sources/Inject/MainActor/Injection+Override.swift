extension Injection {
  /// Replaces the implementation for every consumer that resolves from now on.
  ///
  /// Pushes a layer on this injection's override stack; ``rollbackOverride(fileID:line:)`` pops it again.
  /// The replacement is built lazily, when a consumer needs a new instance under `strategy`;
  /// the overridden implementation is never built.
  ///
  /// ```swift
  /// apiClientInjection.override(with: MockAPIClient())
  /// defer { apiClientInjection.rollbackOverride() }
  /// ```
  ///
  /// > Important: Consumers that already read the dependency keep the instance they have;
  /// > only new resolutions see the override. Override at the start of a target (a preview, a
  /// > demo app, a UI-test launch), before consumers read.
  ///
  /// - Parameters:
  ///   - instance: Builds the replacement; evaluated on the main actor when needed.
  ///   - strategy: The replacement's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the override is pushed; recorded for diagnostics.
  ///   - line: Where the override is pushed; recorded for diagnostics.
  ///   - function: The function that pushes it: in a test world, one pushed by an initializer
  ///     (a suite's `init()`, its set-up) is set-up, which a strict test does not report unused.
  public func override(
    with instance: @autoclosure @escaping @MainActor () -> T,
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
  /// Pushes a layer on this injection's override stack; ``rollbackOverride(fileID:line:)`` pops it again.
  /// Whenever the layer needs a new instance under `strategy`, it asks the layer beneath for a
  /// new one (from its factory, not its stored instance) and passes it to `transform`, so
  /// decorators compose:
  ///
  /// ```swift
  /// apiClientInjection.override(with: { client in LoggingAPIClient(wrapping: client) }, strategy: .onDemand)
  /// ```
  ///
  /// > Note: Because `transform` receives an instance, the layer beneath builds one each time,
  /// > even if `transform` ignores it (`{ _ in MockAPIClient() }`). To replace without building
  /// > the overridden implementation, use `override(with:strategy:)`.
  ///
  /// - Parameters:
  ///   - transform: Receives a new instance from the layer beneath and returns the instance
  ///     to use. Runs lazily on the main actor, never at `override` time.
  ///   - strategy: The layer's strategy; `nil` (the default) keeps the published one.
  ///   - fileID: Where the override is pushed; recorded for diagnostics.
  ///   - line: Where the override is pushed; recorded for diagnostics.
  ///   - function: The function that pushes it: in a test world, one pushed by an initializer
  ///     (a suite's `init()`, its set-up) is set-up, which a strict test does not report unused.
  public func override(
    with transform: @escaping @MainActor (T) -> T,
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
  /// ```swift
  /// public let demoAPIClientInjection = Injection<any APIClient>(strategy: .singleton, instance: MockAPIClient())
  /// apiClientInjection.override(with: demoAPIClientInjection)
  /// ```
  ///
  /// Overriding an injection with itself, or closing a loop (A → B → A), stops the program
  /// with a message naming both injections.
  ///
  /// - Parameters:
  ///   - other: The injection to resolve from instead.
  ///   - fileID: Where the override is pushed; recorded for diagnostics.
  ///   - line: Where the override is pushed; recorded for diagnostics.
  ///   - function: The function that pushes it: in a test world, one pushed by an initializer
  ///     (a suite's `init()`, its set-up) is set-up, which a strict test does not report unused.
  public func override(
    with other: Injection<T>, fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) {
    engine.push(.injection(other), strategy: nil, on: self, at: CodeLocation(fileID: fileID, line: line), in: function)
  }

  /// Pops the most recent override, restoring the layer beneath it.
  ///
  /// The popped layer releases what it held, in the global world and in every scope's world, so
  /// a mock can be deallocated once its consumers are gone. Every instance that the global world stored while the layer was in place, in
  /// any injection, is dropped too: a `.singleton` repository built with the mock client is
  /// built anew by its next consumer. Instances stored before the push keep their identity, and
  /// consumers keep what they hold. With no override to roll back, nothing changes (debug
  /// builds warn, and the telemetry records it).
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
