extension Injection {
  /// Tells the telemetry that a consumer at `location` assigned its own instance.
  @usableFromInline
  func recordLocalOverride(at location: CodeLocation) {
    Telemetry.record(.localOverrideSet, self, at: location)
  }

  /// A layer built by `source`, with `strategy` or the published one.
  func layer(
    _ source: Layer<T>.Source, _ strategy: Strategy?, _ location: CodeLocation, _ origin: InjectionEvent.Layer,
    pushEpoch: UInt64 = 0
  ) -> Layer<T> {
    Layer(source, strategy: strategy ?? self.strategy, location: location, origin: origin, pushEpoch: pushEpoch)
  }

  /// A layer that delegates to `other`, after checking that it closes no loop in `world` (`nil`:
  /// the global configuration), where it will apply: with the scopes' overrides for a scope's
  /// layer, without them (`seesScopes` false) for a layer of the test's stack, which applies to
  /// every world of the test.
  func layer(
    delegatingTo other: Injection<T>, in world: World?, seesScopes: Bool = true, _ location: CodeLocation,
    _ origin: InjectionEvent.Layer, pushEpoch: UInt64 = 0
  ) -> Layer<T> {
    if let loop = loop(through: other, in: world, seesScopes: seesScopes) {
      BuildChain.stopForOverrideLoop(label, with: other.label, loop: loop.map(\.label))
    }
    return Layer(.injection(other), strategy: nil, location: location, origin: origin, pushEpoch: pushEpoch)
  }

  // MARK: - Resolving in a world

  /// The instance a new consumer declared at `location` gets in `world` (`nil`: the global
  /// world): the stored one, or one built and stored by the strategy of the top layer.
  @usableFromInline
  func resolve(in world: World?, from location: CodeLocation) -> T {
    let position = top(in: world)
    let layer = layer(at: position, in: world)
    world?.strictCheck?.noteResolved(layer)
    guard case .injection(let other) = layer.source else {
      return build(at: position, layer, in: world, from: location)
    }
    return resolve(in: world, from: location, delegatingTo: other)
  }

  /// The instance a new consumer declared at `location` gets in `world` from `other`, which this
  /// injection's top layer delegates to.
  ///
  /// Follows the delegations iteratively, each injection of the chain entered for the cycle
  /// check, so that a chain of any length takes constant stack.
  private func resolve(in world: World?, from location: CodeLocation, delegatingTo other: Injection<T>) -> T {
    var delegating = [Entered(self, from: location, in: world)]
    defer {
      while let entered = delegating.popLast() {
        entered.leave(as: Injection<T>.self)
      }
    }
    var injection = other
    while true {
      let position = injection.top(in: world)
      let layer = injection.layer(at: position, in: world)
      world?.strictCheck?.noteResolved(layer)
      guard case .injection(let other) = layer.source else {
        return injection.build(at: position, layer, in: world, from: location)
      }
      delegating.append(Entered(injection, from: location, in: world))
      injection = other
    }
  }

  /// The instance stored in `world` for `layer` at `position`, or a new one, stored if the
  /// layer's strategy keeps it.
  private func build(
    at position: LayerPosition, _ layer: Layer<T>, in world: World?, from location: CodeLocation
  ) -> T {
    guard !layer.isOnDemand else {
      // Stores nothing, so it needs no slot, in a world or out of one; what it was built with
      // passes to the build that resolved it, which holds it.
      BuildDependencies.begin()
      let instance = newInstance(at: position, in: world, for: location)
      BuildDependencies.endPassingOn()
      Telemetry.record(.built(layer.origin), self, at: location)
      return instance
    }
    let slot = world?.slot(for: layer) ?? layer.slot
    // Not `slot.stored`: an `Optional<T>` costs a generic-metadata lookup here, where `T` is
    // not specialized.
    let instance = slot.instance {
      // A layer that builds has a strategy: only one that delegates has none.
      buildAndStore(at: position, layer, layer.strategy.unsafelyUnwrapped, in: slot, of: world, from: location)
    } found: {
      Telemetry.record(.returnedFromStorage(layer.origin), self, at: location)
    }
    // The build in progress, if any, holds what it resolved: it belongs to the same generations.
    if BuildDependencies.isRecording {
      BuildDependencies.note(slot.generations)
    }
    return instance
  }

  /// A new instance from `layer` at `position` in `world`, which `slot` keeps under `strategy`.
  private func buildAndStore(
    at position: LayerPosition, _ layer: Layer<T>, _ strategy: Strategy, in slot: InstanceSlot<T>, of world: World?,
    from location: CodeLocation
  ) -> T {
    BuildDependencies.begin()
    let instance = newInstance(at: position, in: world, for: location)
    var generations = BuildDependencies.end()
    // The first instance of the session in this world begins its generation.
    let own = strategy.session.map { session in SessionGenerations.inWorld(world) { $0.generation(of: session) } }
    if let own {
      generations.append(own)
    }
    // The build resolved an instance of a generation that ended meanwhile (a factory that ended
    // the session): what it built is not handed to new consumers.
    if generations.contains(where: \.isEnded) {
      BuildDependencies.note(generations)
      Telemetry.record(.built(layer.origin), self, at: location)
      return instance
    }
    // Stored before the telemetry hears of it, so that a telemetry that resolves in `record`
    // finds it instead of building another.
    // The global world's log, or its test's: the worlds of scopes outside tests have none.
    let log = world.map { $0.testOverrides?.log } ?? RollbackLog.global
    let (keeping, replaced) = slot.store(
      instance, strategy: strategy, epoch: log?.epoch ?? 0, generations: generations, own: own)
    for generation in generations {
      generation.add(slot, owner: generation === own ? .init(self, strategy: strategy) : nil)
    }
    log?.noteStore(in: slot)
    slot.registerOnce(self, layer, strategy: strategy, in: world)
    Telemetry.record(.built(layer.origin), self, at: location)
    if case .shared = strategy, keeping == .strongly {
      Telemetry.record(.keptStrongly(layer.origin), self, at: location)
    }
    withExtendedLifetime(replaced) {}
    return instance
  }

  /// A new instance from the layer at `position` in `world`, for a consumer at `location`,
  /// watched for leaks if the world watches.
  ///
  /// The caller opens the build's frame of ``BuildDependencies`` around it.
  private func newInstance(at position: LayerPosition, in world: World?, for location: CodeLocation) -> T {
    let instance = guardingCycles(from: location, inGlobalWorld: world == nil) {
      make(from: position, in: world, for: location)
    }
    world?.noteBuilt(instance, by: self, for: location)
    return instance
  }

  /// A new instance from the layer at `position` in `world`, decorated by every decorator on
  /// the way down to a layer that builds, through every injection delegated to.
  ///
  /// Walks down iteratively and gathers the decorators before running any code of the user's,
  /// so that any number of decorators and delegations takes constant stack, and a factory that
  /// pushes or pops overrides cannot change which layers this build uses. Each injection
  /// delegated to stays entered, for the cycle check, until its own decorators have run.
  private func make(from position: LayerPosition, in world: World?, for location: CodeLocation) -> T {
    // The common case, a layer that builds, takes no list: a list of closures of `T` costs
    // generic-metadata lookups here, where `T` is not specialized.
    let layer = layer(at: position, in: world)
    if case .instance(let build) = layer.source {
      noteLiveBuild(layer, in: world, for: location)
      return build()
    }
    var decorators: [@MainActor (T) -> T] = []
    var delegated: [Entered] = []
    var (injection, position) = (self, position)
    var instance: T
    while true {
      let layer = injection.layer(at: position, in: world)
      world?.strictCheck?.noteResolved(layer)
      switch layer.source {
      case .instance(let build):
        injection.noteLiveBuild(layer, in: world, for: location)
        instance = build()
      case .injection(let other):
        delegated.append(Entered(other, from: location, in: world, firstDecorator: decorators.count))
        (injection, position) = (other, other.top(in: world))
        continue
      case .transform(let decorate):
        decorators.append(decorate)
        position = injection.beneath(position, in: world)
        continue
      }
      break
    }
    while let entered = delegated.popLast() {
      while decorators.count > entered.firstDecorator {
        instance = decorators.removeLast()(instance)
      }
      entered.leave(as: Injection<T>.self)
    }
    while let decorate = decorators.popLast() {
      instance = decorate(instance)
    }
    return instance
  }

  /// Tells `world`'s strict test, if any, that `layer` builds the live instance (or a launch
  /// override, or the preview value) there for a consumer at `location`; or, in the global
  /// world, the checks of a test process.
  private func noteLiveBuild(_ layer: Layer<T>, in world: World?, for location: CodeLocation) {
    guard layer === published else { return }
    world?.noteUntested(self, at: location)
    // Outside every test world: the global world, or a scope opened outside a test world.
    if world?.isTest != true && layer.origin == .published {
      TestProcessChecks.noteLiveBuild(self, for: location)
    }
  }

  // MARK: - Positions in the configuration

  /// The top of the configuration in `world`: its scoped override of this injection, or the
  /// top of its test's stack, or the top of the global stack, read live.
  func top(in world: World?) -> LayerPosition {
    if let world, let scoped = world.override(of: self) {
      return .scoped(scoped)
    }
    return topBeneathScopes(in: world)
  }

  /// The top of the configuration beneath the scoped overrides in `world`: its test's stack, or
  /// the global stack.
  private func topBeneathScopes(in world: World?) -> LayerPosition {
    if let tested = world?.testOverrides, case let depth = tested.depth(of: self), depth > 0 {
      return .tested(tested, depth)
    }
    return .global(state.access { $0.depth })
  }

  /// The layer at `position` in `world`: a test world resolves the test value, if there is
  /// one, instead of the published layer.
  func layer(at position: LayerPosition, in world: World?) -> Layer<T> {
    switch position {
    case .scoped(let scoped): scoped.layer(as: Injection<T>.self)
    case .tested(let tested, let depth): tested.layer(of: self, at: depth)
    case .global(0): world?.isTest == true ? testLayer ?? published : published
    case .global(let index): overrides[index - 1]
    }
  }

  /// The position beneath `position` in `world`: the override that an enclosing scope
  /// declared, or the next layer of the test's stack or of the global stack.
  ///
  /// Only decorators ask, and the published layer is never one.
  func beneath(_ position: LayerPosition, in world: World?) -> LayerPosition {
    switch position {
    case .scoped(let scoped): scoped.beneath.map(LayerPosition.scoped) ?? topBeneathScopes(in: world)
    case .tested(let tested, let depth): depth > 1 ? .tested(tested, depth - 1) : .global(state.access { $0.depth })
    case .global(let index): .global(index - 1)
    }
  }

  // MARK: - Loops

  /// The loop from `self` back to `self` that delegating to `other` would form in `world`, if
  /// any.
  ///
  /// Walks iteratively, so long chains cannot overflow the stack.
  private func loop(through other: Injection<T>, in world: World?, seesScopes: Bool) -> [Injection<T>]? {
    var chain: [Injection<T>] = [self]
    var visited: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
    var next = other
    while next !== self {
      guard visited.insert(ObjectIdentifier(next)).inserted,
        let delegate = next.delegate(in: world, seesScopes: seesScopes)
      else {
        return nil
      }
      chain.append(next)
      next = delegate
    }
    return chain + [self]
  }

  /// The injection that this one's configuration in `world`, with or without its scopes'
  /// overrides, resolves through, if any.
  private func delegate(in world: World?, seesScopes: Bool) -> Injection<T>? {
    var position = seesScopes ? top(in: world) : topBeneathScopes(in: world)
    while true {
      switch layer(at: position, in: world).source {
      case .instance: return nil
      case .transform: position = beneath(position, in: world)
      case .injection(let other): return other
      }
    }
  }
}

/// An injection entered for the cycle check while a resolution delegates through it, to be left
/// in the reverse order.
///
/// Not generic, so that a list of them costs no generic metadata on the general path, which
/// every resolution in a scope takes, whether it delegates or not.
private struct Entered {
  /// The `Injection<T>`.
  let injection: AnyObject
  /// The innermost injection when it was entered, for `leaveResolution(restoring:)`.
  let outer: Unmanaged<AnyObject>?
  /// How many decorators had been gathered when the build delegated to it.
  let firstDecorator: Int

  @MainActor
  init<T>(_ injection: Injection<T>, from location: CodeLocation, in world: World?, firstDecorator: Int = 0) {
    self.outer = injection.enterResolution(from: location, inGlobalWorld: world == nil)
    self.injection = injection
    self.firstDecorator = firstDecorator
  }

  /// Leaves the injection, an `Injection<T>`.
  @MainActor
  func leave<T>(as type: Injection<T>.Type) {
    // Only `init` stores it, from an `Injection<T>` of the same resolution.
    unsafeDowncast(injection, to: type).leaveResolution(restoring: outer)
  }
}

/// Where a layer sits in the configuration that a world resolves from: a scope's override, or
/// an index of the global stack (0 is the published layer).
///
/// Not generic, so that the general path, which is not specialized for the injection's type,
/// handles positions with no generic-metadata lookup.
enum LayerPosition {
  /// A scoped override that applies in the world.
  case scoped(ScopedOverride)
  /// A depth (1 is the first pushed) of the stack of the test that the world belongs to.
  case tested(TestOverrides, Int)
  /// An index of the global stack.
  case global(Int)
}
