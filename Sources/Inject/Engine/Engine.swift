/// The resolution algorithm, written once for both kinds of injection: what a new consumer of an
/// injection gets in a world.
///
/// Each rule exists here alone, and a door (`D`) supplies only what really differs (``Door``):
/// the positions of the configuration (``Configuration``), delegation to another injection,
/// build / decorate / store with exact rollback (``RollbackLog``), and the diagnostic hooks:
/// strict notes, the leak watch, the graph's list of stored slots and what builds resolved,
/// `.shared` values kept strongly, live values built in a test process, and the telemetry.
///
/// Nonisolated, and called by each door where its resolutions run: `Injection`'s conformance to
/// ``Door`` is main-actor-isolated, so the compiler lets the engine resolve a main-actor
/// injection only on the main actor.
///
/// An object, one per injection, that holds only its publication: its methods get the door's
/// type and its conformance from the object, where static functions of a generic type would look
/// them up at run time on every call (a cost of hundreds of instructions on the general path,
/// which is not specialized for the door).
final class Engine<D: Door>: Sendable {
  /// What the engine's injection was published with.
  let publication: Publication<D>

  init(_ publication: Publication<D>) {
    self.publication = publication
  }

  /// The instance a new consumer declared at `location` gets in `world` (`nil`: the global
  /// world): the stored one, or one built and stored by the strategy of the top layer.
  ///
  /// `injection` is the engine's own.
  func resolve(_ injection: D.Injection, in world: World?, from location: CodeLocation) -> D.Value {
    // Read before the stacks: what they give holds while their count of changes is this.
    let changes = StackChanges.now
    // An injection published `.onDemand` stores nothing to find, unless an override says
    // otherwise; a strict test's world and the telemetry note the layer found, which the general
    // path reads.
    if let world, !publication.published.isOnDemand, world.strictCheck == nil, !D.recordsResolutions,
      let found = D.resolved(in: world, by: self, at: changes)
    {
      // Only the door's part holds its slots: `D.Slot`s.
      return resolve(injection, from: D.Slot.unerased(found), in: world, from: location, changes: changes)
    }
    return resolve(injection, readingIn: world, from: location, changes: changes)
  }

  /// The instance a new consumer declared at `location` gets in `world` from `slot`, the slot of
  /// the top layer of `injection` that the world's last resolution of it found, with no stack
  /// changed since: the stored instance, else what a resolution that reads the configuration
  /// gets.
  private func resolve(
    _ injection: D.Injection, from slot: D.Slot, in world: World, from location: CodeLocation, changes: UInt64
  ) -> D.Value {
    var isFound = false
    let instance = D.instance(in: slot) {
      // Nothing kept: resolved as if nothing had been found, no build of the slot claimed yet.
      resolve(injection, readingIn: world, from: location, changes: changes)
    } found: {
      isFound = true
    }
    if isFound, D.isRecordingBuild {
      D.noteResolved {
        (
          BuildDependency(injection, publication, at: location),
          D.generations(of: slot)
        )
      }
    }
    return instance
  }

  /// The instance a new consumer declared at `location` gets in `world` (`nil`: the global
  /// world), from its configuration read now (`changes` is the count of stack changes read
  /// before).
  @inline(__always)
  private func resolve(
    _ injection: D.Injection, readingIn world: World?, from location: CodeLocation, changes: UInt64
  ) -> D.Value {
    // Read before the stacks: what is built from them may be stored while no rollback of the
    // world's log has happened since. The layers read include every layer beneath the one that
    // stores, any of which a rollback may pop (a family's override beneath a member's decorator).
    let pops = RollbackLog.pops(covering: world)
    let configuration = Configuration<D>(injection, publication, in: world)
    let position = configuration.top
    let layer = configuration.layer(at: position)
    world?.strictCheck?.noteResolved(layer.given)
    guard let other = layer.delegate else {
      return build(at: position, layer, configuration, from: location, changes: changes, ifNoRollbackSince: pops)
    }
    return resolve(delegatingFrom: injection, to: other, in: world, from: location, ifNoRollbackSince: pops)
  }

  /// The instance that a consumer declared at `location`, made in a world of `configuration`,
  /// gets now: in the current task's world if it is that world or nested in it, else in a world
  /// of `configuration` made for it (its storage while one lives, else one made again), the
  /// current task's while it resolves, so that what a factory resolves resolves there too.
  ///
  /// The consumer's storage retains `configuration` while this runs.
  func resolve(
    _ injection: D.Injection, remembering configuration: Unmanaged<WorldConfiguration>, from location: CodeLocation
  ) -> D.Value {
    if let current = World.current, current.configuration.isWithin(configuration) {
      return resolve(injection, in: current, from: location)
    }
    let world = World(configuration.takeUnretainedValue())
    return world.enter { resolve(injection, in: world, from: location) }
  }

  /// The instance a new consumer declared at `location` gets in `world` from `other`, which the
  /// top layer of `injection` delegates to.
  ///
  /// Follows the delegations iteratively, each injection of the chain entered for the cycle
  /// check, so that a chain of any length takes constant stack.
  private func resolve(
    delegatingFrom injection: D.Injection, to other: D.Injection, in world: World?, from location: CodeLocation,
    ifNoRollbackSince pops: UInt64
  ) -> D.Value {
    // Each injection entered is held here until it leaves.
    var entered = [(injection, D.enter(injection, from: location, inGlobalWorld: world == nil))]
    defer {
      while let (injection, mark) = entered.popLast() {
        D.leave(injection, mark)
      }
    }
    var injection = other
    while true {
      let configuration = Configuration<D>(injection, in: world)
      let position = configuration.top
      let layer = configuration.layer(at: position)
      world?.strictCheck?.noteResolved(layer.given)
      guard let next = layer.delegate else {
        return build(at: position, layer, configuration, from: location, changes: nil, ifNoRollbackSince: pops)
      }
      entered.append((injection, D.enter(injection, from: location, inGlobalWorld: world == nil)))
      injection = next
    }
  }

  /// The instance stored in the world for `layer` at `position`, or a new one, stored if the
  /// layer's strategy keeps it and no rollback of the world's log happened since its count was
  /// `pops`.
  ///
  /// `changes`, for a resolution of the configuration's own injection, is the count of stack
  /// changes it read before the stacks: the world's part keeps it with the slot, for the next.
  private func build(
    at position: Position, _ layer: Layer<D>, _ configuration: Configuration<D>, from location: CodeLocation,
    changes: UInt64?, ifNoRollbackSince pops: UInt64
  ) -> D.Value {
    let injection = configuration.injection
    guard !layer.isOnDemand else {
      // Stores nothing, so it needs no slot, in a world or out of one; what it was built with
      // passes to the build that resolved it, which holds it.
      var generations: [SessionGeneration] = []
      let instance = buildInFrame(at: position, layer, configuration, for: location, resolving: &generations)
      if D.recordsResolutions {
        D.record(.built(layer.origin), injection, at: location)
      }
      if D.isRecordingBuild {
        D.noteResolved { (configuration.dependency(at: location), generations) }
      }
      return instance
    }
    let slot: D.Slot
    if let world = configuration.world {
      slot = world.slot(
        for: layer, D.self, resolvedBy: changes.map { WorldPart.Reader(engine: self, changes: $0) })
    } else {
      slot = layer.slot
    }
    let instance = D.instance(in: slot, of: injection, for: location) {
      // A layer that builds has a strategy: only one that delegates has none.
      buildAndStore(
        at: position, layer, layer.strategy.unsafelyUnwrapped, in: slot, configuration, for: location,
        ifNoRollbackSince: pops)
    } found: {
      if D.recordsResolutions {
        D.record(.returnedFromStorage(layer.origin), injection, at: location)
      }
    }
    // The build in progress, if any, holds what it resolved: it belongs to the same generations.
    if D.isRecordingBuild {
      D.noteResolved { (configuration.dependency(at: location), D.generations(of: slot)) }
    }
    return instance
  }

  /// A new instance from `layer`, at `position`, built in a frame of its own.
  ///
  /// What the build resolved becomes the layer's build edges; the session generations it
  /// resolved are added to `generations`. (Not a tuple with the instance: a tuple of the door's
  /// value type costs a generic-metadata look-up here, where the door is not specialized.)
  @inline(__always)
  private func buildInFrame(
    at position: Position, _ layer: Layer<D>, _ configuration: Configuration<D>, for location: CodeLocation,
    resolving generations: inout [SessionGeneration]
  ) -> D.Value {
    D.beginBuild()
    let instance = newInstance(at: position, configuration, for: location)
    if let record = D.endBuild() {
      configuration.publication.noteBuilt(by: layer, with: record.dependencies)
      generations += record.generations
    }
    return instance
  }

  /// In a storage made again for the consumers that read after their world ended: the object
  /// that `layer` built in an ended storage of the world's configuration, if it is alive
  /// elsewhere, else a new instance (``buildInFrame(at:_:_:for:resolving:)``).
  @inline(never)
  private func foundAgainOrBuilt(
    at position: Position, _ layer: Layer<D>, _ configuration: Configuration<D>, for location: CodeLocation,
    resolving generations: inout [SessionGeneration]
  ) -> D.Value {
    if let object = configuration.world?.configuration.remnant(of: layer), let found = object as? D.Value {
      return found
    }
    return buildInFrame(at: position, layer, configuration, for: location, resolving: &generations)
  }

  /// A new instance from `layer` at `position`, which `slot` keeps under `strategy`: unless a
  /// rollback of the world's log happened since its count was `pops` (read before the
  /// resolution read the configuration), or a session generation it resolved ended meanwhile.
  private func buildAndStore(
    at position: Position, _ layer: Layer<D>, _ strategy: Strategy, in slot: D.Slot, _ configuration: Configuration<D>,
    for location: CodeLocation, ifNoRollbackSince pops: UInt64
  ) -> D.Value {
    let (injection, world) = (configuration.injection, configuration.world)
    let log = RollbackLog.covering(world)
    var generations: [SessionGeneration] = []
    let instance =
      world?.storage.isMadeAgain == true && strategy.session == nil
      ? foundAgainOrBuilt(at: position, layer, configuration, for: location, resolving: &generations)
      : buildInFrame(at: position, layer, configuration, for: location, resolving: &generations)
    // The first instance of the session in this world begins its generation.
    let own = strategy.session.map { session in World.withSessions(of: world) { $0.generation(of: session) } }
    if let own {
      generations.append(own)
    }
    let owner = own.map { _ in SessionGeneration.Owner(configuration.publication, strategy: strategy) }
    // Stored before the telemetry hears of it, so that a telemetry that resolves in `record`
    // finds it instead of building another.
    let outcome = store(instance, in: slot, log: log, ifNoRollbackSince: pops) { clock, isGuarded in
      // A generation that ended meanwhile (a factory that ended the session) refuses the slot:
      // what the build made is not handed to new consumers.
      for generation in generations where !generation.add(slot, owner: generation === own ? owner : nil) {
        return .refusedByEndedGeneration
      }
      let (keeping, replaced) = D.store(
        instance, in: slot,
        StoreRecord(strategy: strategy, generations: generations, own: own, isGuarded: isGuarded, storedAt: clock))
      return .stored(keeping, replaced: replaced)
    }
    if D.recordsResolutions {
      D.record(.built(layer.origin), injection, at: location)
    }
    if case .stored(let keeping, let replaced) = outcome {
      registerOnce(slot, of: injection, configuration.publication, layer, strategy: strategy, in: world)
      if case .shared = strategy, keeping == .strongly {
        D.record(.keptStrongly(layer.origin), injection, at: location)
      }
      withExtendedLifetime(replaced) {}
    }
    // A family's `.shared` instances die unseen, as their last holder lets them go, and leave
    // their members to be pruned: each build of one pays the family a constant share of looking
    // for those (``FamilyCore/hear(_:)``).
    if case .shared = strategy, let family = configuration.publication.family {
      D.tell(family.identity, .sharedBuilt)
    }
    return instance
  }

  /// Runs `store`, which stores `instance` in `slot`, at the clock of `log` (none: 0), with its
  /// lock held, and returns what came of it; unless a rollback happened since `pops` was read:
  /// then ``StoreOutcome/overlappedByRollback``, without running it.
  private func store(
    _ instance: D.Value, in slot: D.Slot, log: RollbackLog?, ifNoRollbackSince pops: UInt64,
    _ store: (_ clock: UInt64, _ isGuarded: Bool) -> StoreOutcome
  ) -> StoreOutcome {
    guard let log else { return store(0, false) }
    return log.store(in: slot, ifNoRollbackSince: pops, store)
  }

  /// A new instance from the layer at `position`, for a consumer at `location`, watched for
  /// leaks if the world watches.
  ///
  /// The caller opens the build's frame around it.
  private func newInstance(
    at position: Position, _ configuration: Configuration<D>, for location: CodeLocation
  ) -> D.Value {
    let injection = configuration.injection
    // The configuration holds `injection` until it leaves.
    let entered = D.enter(injection, from: location, inGlobalWorld: configuration.world == nil)
    let instance = make(from: position, configuration, for: location)
    D.leave(injection, entered)
    configuration.world?.leakWatch?.watch(instance, builtBy: configuration.publication.label, for: location)
    return instance
  }

  /// A new instance from the layer at `position`, decorated by every decorator on the way down
  /// to a layer that builds, through every injection delegated to.
  ///
  /// Walks down iteratively and gathers the decorators before running any code of the user's,
  /// so that any number of decorators and delegations takes constant stack, and a factory that
  /// pushes or pops overrides cannot change which layers this build uses. Each injection
  /// delegated to stays entered, for the cycle check, until its own decorators have run.
  private func make(
    from position: Position, _ configuration: Configuration<D>, for location: CodeLocation
  ) -> D.Value {
    // The common case, a layer that builds, takes no list: a list of closures costs
    // generic-metadata lookups here, where the door is not specialized.
    let layer = configuration.layer(at: position)
    if let factory = layer.factory {
      noteLiveBuild(layer, configuration, for: location)
      return D.make(factory)
    }
    return makeDecorating(from: position, configuration, for: location)
  }

  /// A new instance from the layer at `position`, which decorates or delegates: ``make(from:_:for:)``
  /// for the layers that do not simply build.
  @inline(never)
  private func makeDecorating(
    from position: Position, _ configuration: Configuration<D>, for location: CodeLocation
  ) -> D.Value {
    var decorators: [D.Decorator] = []
    // Each injection delegated to is held here until it leaves.
    var delegated: [(injection: D.Injection, entered: Unmanaged<AnyObject>?, firstDecorator: Int)] = []
    var (configuration, position) = (configuration, position)
    var instance: D.Value
    while true {
      let layer = configuration.layer(at: position)
      configuration.world?.strictCheck?.noteResolved(layer.given)
      if let factory = layer.factory {
        noteLiveBuild(layer, configuration, for: location)
        instance = D.make(factory)
        break
      }
      if let other = layer.delegate {
        let entered = D.enter(other, from: location, inGlobalWorld: configuration.world == nil)
        delegated.append((other, entered, decorators.count))
        configuration = Configuration(other, in: configuration.world)
        position = configuration.top
        continue
      }
      // A layer that neither builds nor delegates decorates.
      decorators.append(layer.decorator.unsafelyUnwrapped)
      position = configuration.beneath(position)
    }
    while let (injection, entered, firstDecorator) = delegated.popLast() {
      while decorators.count > firstDecorator {
        instance = D.decorate(instance, with: decorators.removeLast())
      }
      D.leave(injection, entered)
    }
    while let decorate = decorators.popLast() {
      instance = D.decorate(instance, with: decorate)
    }
    return instance
  }

  /// Tells the world's strict test, if any, that `layer` builds the live instance (or a launch
  /// override, or the preview value) for a consumer at `location`; or, outside every test world,
  /// the checks of a test process.
  private func noteLiveBuild(_ layer: Layer<D>, _ configuration: Configuration<D>, for location: CodeLocation) {
    let publication = configuration.publication
    guard layer === publication.published else { return }
    let world = configuration.world
    if world?.strictCheck?.noteUntested(configuration.injection, label: publication.label, at: location) == true {
      D.record(.liveValueAfterTest, configuration.injection, at: location)
    }
    // Outside every test world: the global world, or a scope opened outside a test world.
    if world?.isTest != true, layer.origin == .published, publication.testLayer != nil, ProcessContext.isTesting,
      !D.withGlobalStack(of: configuration.injection, { $0.notes.reportLiveBuildOnce() })
    {
      D.record(.liveValueInTest, configuration.injection, at: location)
    }
  }

  /// Lists `slot`, which `layer` of `injection` stores in, in `world`'s part (`nil`: the global
  /// world's), for the graph, unless it is listed already.
  private func registerOnce(
    _ slot: D.Slot, of injection: D.Injection, _ publication: Publication<D>, _ layer: Layer<D>, strategy: Strategy,
    in world: World?
  ) {
    let entry = StoredEntry(
      slot: slot, layer: ObjectIdentifier(layer), injection: ObjectIdentifier(injection),
      publication: publication, strategy: strategy, origin: layer.origin)
    // The global world's slots are its layers'; a world's own, its part's. A global layer popped
    // after the store (which emptied the slot, listed in the log) and before this listing stays
    // unlisted: the pop marks it before it forgets it in this part, under the guard taken here.
    D.withPart(of: world) { $0.register(entry, keepsSlots: world != nil) { World.isPopped(layer) } }
  }
}

/// Read back from an injection's state, which holds it type-erased (``Injection/engine``). Safe:
/// only that getter stores it, made for the injection's own type.
extension Engine: Unerasable {}
