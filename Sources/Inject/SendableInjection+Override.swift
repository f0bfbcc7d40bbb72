@_spi(SendableInjections)
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
  public func override(
    with instance: @autoclosure @escaping @Sendable () -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    push(.instance(instance), strategy ?? self.strategy, at: CodeLocation(fileID: fileID, line: line))
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
  public func override(
    with transform: @escaping @Sendable (T) -> T,
    strategy: Strategy? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    push(.transform(transform), strategy ?? self.strategy, at: CodeLocation(fileID: fileID, line: line))
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
  public func override(with other: SendableInjection<T>, fileID: StaticString = #fileID, line: UInt = #line) {
    stopIfLooping(through: other, in: World.current?.sendable)
    push(.injection(other), nil, at: CodeLocation(fileID: fileID, line: line))
  }

  /// Pops the most recent override, restoring the layer beneath it.
  ///
  /// Every instance that a sendable injection stored while the layer was in place is dropped:
  /// a `.singleton` built with the mock is built anew by its next consumer. Instances stored
  /// before the push keep their identity. With no override to roll back, nothing changes.
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
    if let stacks = World.current?.sendable.testStacks {
      return stacks.depth(of: self)
    }
    return overrides.withLock { $0.count }
  }

  /// Pushes a layer built by `source` with `strategy`: on the current test's stack, in a test
  /// world, else on the global stack; at the next epoch of the stack's rollback log.
  private func push(_ source: SendableLayer<T>.Source, _ strategy: Strategy?, at location: CodeLocation) {
    let world = World.current
    let (layer, depth): (SendableLayer<T>, Int)
    if let stacks = world?.sendable.testStacks {
      (layer, depth) = stacks.push(on: self) { epoch, depth in
        SendableLayer(
          source, strategy: strategy, location: location, origin: .testOverride(depth: depth), pushEpoch: epoch)
      }
    } else {
      // The epoch is taken with the stack's lock held, so that epochs rise with the stack.
      (layer, depth) = overrides.withLock { layers in
        let (epoch, depth) = (SendableRollbackLog.global.push(), layers.count + 1)
        layers.append(
          SendableLayer(
            source, strategy: strategy, location: location, origin: .override(depth: depth), pushEpoch: epoch))
        return (layers[layers.count - 1], depth)
      }
      if ProcessContext.isTesting {
        let (label, publishedAt) = ("SendableInjection<\(T.self)>", self.location)
        MainActorHop.run { TestProcessChecks.noteGlobalPush(of: label, publishedAt: publishedAt, at: location) }
      }
    }
    MainActorRollback.notePush(of: layer, in: world?.testOverrides)
    SendableTelemetry.record(.overridePushed(depth: depth), self, at: location)
  }

  /// Pops overrides until `leaving(count)` of the `count` on the stack are left (the current
  /// test's stack in a test world, else the global one), and empties what the stack's worlds
  /// stored since the first of them was pushed.
  ///
  /// The popped layers, and what the emptied slots kept, are released after every lock, so a
  /// `deinit` among them may resolve or push.
  private func rollback(leaving: (Int) -> Int, at location: CodeLocation) {
    let world = World.current
    let stacks = world?.sendable.testStacks
    let (popped, left): ([SendableLayer<T>], Int)
    if let stacks {
      (popped, left) = stacks.pop(self, leaving: leaving)
    } else {
      (popped, left) = overrides.withLock { layers in
        guard !layers.isEmpty else { return ([], 0) }
        let left = leaving(layers.count)
        defer { layers.removeSubrange(left...) }
        return (Array(layers[left...]), left)
      }
    }
    guard let first = popped.first else {
      SendableTelemetry.record(.nothingToRollBack, self, at: location)
      return
    }
    SendableTelemetry.record(.rolledBack(depth: left), self, at: location)
    let emptied = (stacks?.log ?? SendableRollbackLog.global).pop(popped.count, pushedAt: first.pushEpoch)
    // Nothing resolves from the popped layers again: no world keeps what they built.
    let forgotten = SendableWorld.forget(popped.map(ObjectIdentifier.init))
    MainActorRollback.notePop(of: popped, in: world?.testOverrides)
    withExtendedLifetime((popped, emptied, forgotten)) {}
  }

  /// Stops the program if delegating to `other` in `world` would form a loop, naming it.
  func stopIfLooping(through other: SendableInjection<T>, in world: SendableWorld?) {
    if let loop = loop(through: other, in: world) {
      BuildChain.stopForOverrideLoop(label, with: other.label, loop: loop.map(\.label))
    }
  }

  /// The loop from `self` back to `self` that delegating to `other` would form in `world`, if
  /// any.
  ///
  /// Walks iteratively, so long chains cannot overflow the stack.
  private func loop(through other: SendableInjection<T>, in world: SendableWorld?) -> [SendableInjection<T>]? {
    var chain: [SendableInjection<T>] = [self]
    var visited: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
    var next = other
    while next !== self {
      guard visited.insert(ObjectIdentifier(next)).inserted, let delegate = next.delegate(in: world) else {
        return nil
      }
      chain.append(next)
      next = delegate
    }
    return chain + [self]
  }

  /// The injection that this one's configuration in `world` resolves through, if any.
  private func delegate(in world: SendableWorld?) -> SendableInjection<T>? {
    let configuration = Configuration(self, in: world)
    var position = configuration.top(of: self)
    while true {
      switch configuration.layer(at: position, of: self).source {
      case .instance: return nil
      case .transform: position = configuration.beneath(position, of: self)
      case .injection(let other): return other
      }
    }
  }
}
