extension Engine {
  /// Pushes a layer built by `source` with `strategy` (`nil`: the published one) on the stack
  /// that `override(with:)` pushes onto here: the current test's, in a test world, else the
  /// global one; at the next epoch of that stack's rollback log.
  ///
  /// A strict test learns `function`, to tell a suite's set-up from the test's own override.
  func push(
    _ source: Layer<D>.Source, strategy: Strategy?, on injection: D.Injection, at location: CodeLocation,
    in function: StaticString
  ) {
    let world = World.current
    let test = world?.testOverrides
    if case .injection(let other) = source {
      // A layer of a stack applies to every world of its test, or to every world: the scopes
      // around this call do not count.
      let stackWorld: World? = test == nil ? nil : world
      stopIfLooping(injection, through: other, in: stackWorld, seesScopes: false)
    }
    let strategy: Strategy? = if case .injection = source { nil } else { strategy ?? publication.strategy }
    if let world, let test {
      let (layer, depth) = D.withStacks(of: test) { stacks -> (Layer<D>, Int) in
        stacks.push(on: injection) { depth in
          Layer<D>(
            source, strategy: strategy, location: location, origin: .testOverride(depth: depth),
            pushEpoch: test.log.push(D.kind))
        }
      }
      world.strictCheck?.noteGiven(layer, of: injection, label: publication.label, pushedIn: function)
      D.record(.overridePushed(depth: depth), injection, at: location)
      return
    }
    let firstResolvedAt = D.withGlobalStack(of: injection) { $0.notes.firstResolvedAt }
    GlobalPushChecks.check(at: location, shadowing: firstResolvedAt) {
      D.record($0, injection, at: location)
    }
    // The epoch is taken while the stack is guarded, so that epochs rise with the stack.
    let depth = D.withGlobalStack(of: injection) { stack in
      stack.push { depth in
        Layer<D>(
          source, strategy: strategy, location: location, origin: .override(depth: depth),
          pushEpoch: RollbackLog.global.push(D.kind))
      }
    }
    D.record(.overridePushed(depth: depth), injection, at: location)
  }

  /// Pops overrides until `leaving(count)` of the `count` on the stack are left: the current
  /// test's stack in a test world, else the global one.
  ///
  /// Empties what the stack's worlds stored since the first popped was pushed. With none to pop,
  /// tells the telemetry.
  ///
  /// Every change of state is made before any code of the user's runs: the popped layers, and
  /// the instances they and the emptied slots held, are released last, so a `deinit` among them
  /// sees the final stack and may resolve or push.
  func rollback(of injection: D.Injection, leaving: (Int) -> Int, at location: CodeLocation) {
    let test = World.current?.testOverrides
    let (popped, left) =
      if let test {
        D.withStacks(of: test) { $0.pop(injection, leaving: leaving) }
      } else {
        D.withGlobalStack(of: injection) { $0.pop(leaving: leaving) }
      }
    guard let first = popped.first else {
      D.record(.nothingToRollBack, injection, at: location)
      return
    }
    // The stacks hold only `Layer<D>`s of the injection.
    let epoch = Layer<D>.unerased(first).pushEpoch
    let released = Self.forgetting(popped: popped, from: test?.log ?? RollbackLog.global, at: epoch)
    D.record(.rolledBack(depth: left), injection, at: location)
    withExtendedLifetime((popped, released)) {}
  }

  /// Marks `layers`, `Layer<D>`s popped from a stack of `log` and pushed at `epoch` or later,
  /// popped; notes in `log` that they are gone; and makes every world forget what they built.
  ///
  /// Marked first, so that a resolution that read the stack before the pop, and makes its slot
  /// in a world after the worlds forgot them, forgets it itself (``World/notePopped(_:_:)``).
  /// The log counted `logged` pushes for them: one per layer, or one for all the layers a family
  /// override made. Call it while they are alive. Returns what is left to release.
  static func forgetting(
    popped layers: [any AnyObject & Sendable], from log: RollbackLog, at epoch: UInt64, logged: Int? = nil
  ) -> [Any] {
    World.notePopped(layers, D.self)
    let (released, onMainActor) = log.pop(logged ?? layers.count, of: D.kind, pushedAt: epoch)
    if onMainActor {
      MainActorDrops.drainSoon()
    }
    // Nothing resolves from the popped layers again: no world keeps what they built.
    return released + World.forget(layers.map(ObjectIdentifier.init), D.self)
  }

  /// Forgets what a released injection leaves behind: what every world built from the layers it
  /// left on the global stack (its family's overrides stay for its family's other members), from
  /// its `publication`'s layers, and from those its family's overrides made for it, from which
  /// nothing resolves again.
  ///
  /// Its own overrides leave with it: the global rollback log stops counting them, and nothing
  /// is rolled back (``RollbackLog/release(_:of:)``): what other injections stored while they
  /// were in place keeps its identity. Returns what is left to release.
  static func forgettingReleased(_ stack: ReleasedStack, publishedBy publication: Publication<D>?) -> [Any] {
    RollbackLog.global.release(stack.own.count, of: D.kind)
    let bottom = [publication?.published, publication?.testLayer].compactMap(\.self).map(ObjectIdentifier.init)
    let madeForIt = (publication?.family?.madeLayers ?? []).map(ObjectIdentifier.init)
    return World.forget(stack.own + stack.family + bottom + madeForIt, D.self)
  }

  /// The number of overrides on the stack that `push` pushes onto here.
  func overrideCount(of injection: D.Injection) -> Int {
    if let test = World.current?.testOverrides {
      return D.withStacks(of: test) { $0.depth(of: injection) }
    }
    return D.withGlobalStack(of: injection) { $0.ownDepth }
  }

  /// A world inside the current task's, where `injection` resolves from a layer built by
  /// `source` with `strategy` (`nil`: the published one): a scope's.
  func scope(
    _ source: Layer<D>.Source, strategy: Strategy?, on injection: D.Injection, at location: CodeLocation
  ) -> World {
    let parent = World.current
    if case .injection(let other) = source {
      stopIfLooping(injection, through: other, in: parent, seesScopes: true)
    }
    let strategy: Strategy? = if case .injection = source { nil } else { strategy ?? publication.strategy }
    let layer = Layer<D>(source, strategy: strategy, location: location, origin: .scoped)
    let world = World(parent: parent, overriding: ScopedOverride(injection, with: layer, in: parent))
    world.strictCheck?.noteGiven(layer, of: injection, label: publication.label)
    return world
  }

  /// Stops the program if delegating from `injection` to `other` in `world` (`nil`: the global
  /// configuration) would close a loop, naming it: with the scopes' overrides if `seesScopes`.
  ///
  /// Walks iteratively, so long chains cannot overflow the stack.
  private func stopIfLooping(
    _ injection: D.Injection, through other: D.Injection, in world: World?, seesScopes: Bool
  ) {
    var chain: [D.Injection] = [injection]
    var visited: Set<ObjectIdentifier> = [ObjectIdentifier(injection)]
    var next = other
    while next !== injection {
      guard visited.insert(ObjectIdentifier(next)).inserted,
        let delegate = Configuration<D>(next, in: world).delegate(seesScopes: seesScopes)
      else { return }
      chain.append(next)
      next = delegate
    }
    let labels = (chain + [injection]).map { D.publication(of: $0).label }
    CycleMessages.stopForOverrideLoop(labels[0], with: D.publication(of: other).label, loop: labels)
  }
}

/// The global stack a released injection left, named by its layers' identities: its own
/// overrides, which the rollback log counted one by one, and its family's, beneath, which the
/// log counted once for each family override.
struct ReleasedStack: Sendable {
  let own: [ObjectIdentifier]
  let family: [ObjectIdentifier]

  /// The stack `layers` (`Layer<D>`s), bottom first, of which the first `familyDepth` are the
  /// family's.
  init<D: DoorTypes>(_ layers: [any AnyObject & Sendable], familyDepth: Int, _: Layer<D>.Type) {
    family = layers[..<familyDepth].map(ObjectIdentifier.init)
    own = layers[familyDepth...].map(ObjectIdentifier.init)
  }
}
