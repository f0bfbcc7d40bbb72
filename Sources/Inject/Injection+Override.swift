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
    let location = CodeLocation(fileID: fileID, line: line)
    push(at: location, in: function) {
      layer(.instance(instance), strategy, location, $0.origin, pushEpoch: $0.epoch)
    }
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
    let location = CodeLocation(fileID: fileID, line: line)
    push(at: location, in: function) {
      layer(.transform(transform), strategy, location, $0.origin, pushEpoch: $0.epoch)
    }
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
    let location = CodeLocation(fileID: fileID, line: line)
    push(at: location, in: function) {
      layer(delegatingTo: other, in: $0.world, seesScopes: false, location, $0.origin, pushEpoch: $0.epoch)
    }
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
    rollback(leaving: { $0 - 1 }, at: CodeLocation(fileID: fileID, line: line))
  }

  /// Pops every override, restoring the published configuration.
  ///
  /// - Parameters:
  ///   - fileID: Where the rollback is made; recorded for diagnostics.
  ///   - line: Where the rollback is made; recorded for diagnostics.
  public func rollbackAllOverrides(fileID: StaticString = #fileID, line: UInt = #line) {
    rollback(leaving: { _ in 0 }, at: CodeLocation(fileID: fileID, line: line))
  }

  /// The number of overrides on the stack that `override(with:)` pushes onto here: the current
  /// test's, in a test world, else the global one.
  public var overrideCount: Int {
    World.current?.testOverrides?.depth(of: self) ?? overrides.count
  }

  /// Where a push goes, and what its layer is made with.
  private struct Push {
    /// The world whose test's stack the layer joins, for the loop check, or `nil` for the
    /// global stack.
    let world: World?
    /// Which layer it is, as telemetry names it.
    let origin: InjectionEvent.Layer
    /// The epoch of its rollback log at the push.
    let epoch: UInt64
  }

  /// Pushes the layer that `makeLayer` makes, in `function`: on the current test's stack, in a
  /// test world, else on the global stack.
  ///
  /// A strict test learns `function`, to tell a suite's set-up from the test's own override.
  private func push(at location: CodeLocation, in function: StaticString, _ makeLayer: (Push) -> Layer<T>) {
    if let world = World.current, let tested = world.testOverrides {
      let depth = tested.depth(of: self) + 1
      tested.push(
        makeLayer(Push(world: world, origin: .testOverride(depth: depth), epoch: tested.log.push())), on: self)
      world.strictCheck?.noteGiven(tested.layer(of: self, at: depth), of: self, pushedIn: function)
      Telemetry.record(.overridePushed(depth: depth), self, at: location)
      return
    }
    if let firstResolvedAt = state.access({ $0.firstResolvedAt }) {
      Telemetry.record(.staleOverride(firstResolvedAt: firstResolvedAt), self, at: location)
    }
    TestProcessChecks.noteGlobalPush(self, at: location)
    let push = Push(world: nil, origin: .override(depth: overrides.count + 1), epoch: RollbackLog.global.push())
    overrides.append(makeLayer(push))
    Telemetry.record(.overridePushed(depth: overrides.count), self, at: location)
  }

  /// Pops overrides until `leaving(count)` of the `count` on the stack are left.
  ///
  /// The stack is the current test's in a test world, else the global one. Empties what the
  /// stack's worlds stored since the first popped was pushed. With none to pop, tells the
  /// telemetry.
  ///
  /// Every change of state is made before any code of the user's runs: the popped layers, and
  /// the instances they and the emptied slots held, are released last, so a `deinit` among them
  /// sees the final stack and may resolve or push.
  private func rollback(leaving: (Int) -> Int, at location: CodeLocation) {
    let tested = World.current?.testOverrides
    let count = tested?.depth(of: self) ?? overrides.count
    guard count > 0 else {
      Telemetry.record(.nothingToRollBack, self, at: location)
      return
    }
    let popped: [Layer<T>]
    if let tested {
      popped = tested.pop(self, to: leaving(count))
    } else {
      popped = Array(overrides[leaving(count)...])
      overrides.removeSubrange(leaving(count)...)
    }
    let emptied = (tested?.log ?? RollbackLog.global).pop(popped.count, pushedAt: popped[0].pushEpoch)
    // Nothing resolves from the popped layers again: no world keeps what they built.
    let forgotten = World.forget(popped.map(ObjectIdentifier.init))
    Telemetry.record(.rolledBack(depth: count - popped.count), self, at: location)
    withExtendedLifetime((popped, emptied, forgotten)) {}
  }
}
