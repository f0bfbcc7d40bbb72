/// What a family of either kind keeps, written once: its members by key, and the overrides of
/// the whole family on the global stack; behind the family's lock.
///
/// A member is an injection of the family's kind, made for its key on first use. The family
/// keeps it only while something needs it (``FamilyCore/isNeeded(_:)``); the others are pruned,
/// amortized, so that the table stays bounded by the members in use without a look-up paying
/// anything: as members are added, so that cycling through any number of keys keeps the table
/// bounded by the keys in use; as worlds that stored instances of its members end, once they
/// kept as many slots of them as half the table holds; and as its members build `.shared`
/// instances, which die unseen, each build checking the members checked longest ago
/// (``FamilyCore/sweep(_:)``).
@usableFromInline
struct FamilyMembers<Key: Hashable & Sendable, D: DoorTypes>: Sendable {
  @usableFromInline
  var members: [Key: D.Injection] = [:]
  /// The overrides of the whole family on the global stack, bottom first: each put a layer on
  /// every member's own global stack, beneath the member's own overrides.
  var globalOverrides: [FamilyOverride<D>] = []
  /// When `members` is pruned, which forgets the members nothing needs.
  var pruning = PruneSchedule()
  /// The slots of members' layers that worlds ended with since the last prune.
  var slotsEnded = 0
  /// The key of every member, once each, from `sweepStart` on, the one checked longest ago (or
  /// never) first; what is before `sweepStart` was checked, and is dropped once it is half.
  var sweepOrder: [Key] = []
  /// Where ``sweepOrder`` starts.
  var sweepStart = 0
}

/// A family of either kind, written once.
///
/// Its members, made from its publication for each key, and its overrides, global, in a test, or
/// in a scope. ``InjectionFamily`` and ``SendableInjectionFamily`` are its two front doors.
@usableFromInline
final class FamilyCore<Key: Hashable & Sendable, D: DoorTypes>: Sendable {
  let identity: FamilyIdentity
  let strategy: Strategy
  /// The publication of the member for a key.
  private let publish: @Sendable (Key, FamilyLink) -> Publication<D>
  /// An injection of the family's kind, published with a publication.
  private let makeInjection: @Sendable (Publication<D>) -> D.Injection
  @usableFromInline
  let state = Locked(FamilyMembers<Key, D>())

  init(
    strategy: Strategy, name: String, location: CodeLocation,
    publish: @escaping @Sendable (Key, FamilyLink) -> Publication<D>,
    makeInjection: @escaping @Sendable (Publication<D>) -> D.Injection
  ) {
    self.identity = FamilyIdentity(name: name, location: location)
    self.strategy = strategy
    self.publish = publish
    self.makeInjection = makeInjection
  }

  /// The member for `key` if the family has one: the common case, inlined into the caller, so
  /// that the look-up is specialized for `Key`.
  @inlinable
  func existingMember(for key: Key) -> D.Injection? {
    state.withLock { $0.members[key] }
  }

  /// How many members the family keeps now, those no longer needed that were not pruned yet
  /// included.
  var memberCount: Int { state.withLock { $0.members.count } }

  deinit {
    // A family released with overrides of its own still on the global stack leaves their layers
    // to its members that live on, as they are; the global rollback log stops counting them, as
    // an injection's release does for its own, and rolls nothing back: what any injection stored
    // while they were in place keeps its identity.
    var members = FamilyMembers<Key, D>()
    state.withLock { swap(&members, &$0) }
    RollbackLog.global.release(members.globalOverrides.count, of: D.kind)
    // A main-actor family's members and closures are released on the main actor.
    if case .mainActor = D.kind {
      MainActorRelease.release(consume members)
    }
  }
}

// The door's conformance is the main actor's for a main-actor family: used only there.
extension FamilyCore where D: Door {
  // MARK: Members

  /// The member for `key`: the one in use, or a new one, with the family's global overrides.
  @usableFromInline
  func member(for key: Key) -> D.Injection {
    var pruned: [D.Injection] = []
    let member = state.withLock { state -> D.Injection in
      if let member = state.members[key] {
        return member
      }
      if state.pruning.isDue(state.members.count) {
        pruned = prune(&state)
      }
      let link = FamilyLink(identity: identity, key: key)
      let member = makeInjection(publish(key, link))
      for override in state.globalOverrides {
        D.withGlobalStack(of: member) { $0.pushFamilyLayer(override.makeLayer(for: link)) }
      }
      makeRoom(in: &state.members)
      keep(member, for: key, in: &state.members)
      state.sweepOrder.append(key)
      return member
    }
    // Released once the lock is: a member's release releases what it stored, whose `deinit`
    // may use the family.
    withExtendedLifetime(pruned) {}
    return member
  }

  /// Hears `note`, which the family's identity was told, and prunes if it is time.
  ///
  /// On the main actor for a main-actor family, whose front door makes it its identity's
  /// listener there; from any thread for a sendable one.
  func hear(_ note: FamilyNote) {
    let pruned = state.withLock { state -> [D.Injection] in
      switch note {
      case .slotsEnded(let count):
        // Pruned once as many slots ended as half the table holds: a prune costs in proportion
        // to the table, so each ended slot pays a constant share of it, and a look-up nothing.
        state.slotsEnded += count
        guard state.slotsEnded * 2 >= state.members.count else { return [] }
        return prune(&state)
      case .sharedBuilt:
        return sweep(&state)
      }
    }
    // Released once the lock is, as in `member(for:)`.
    withExtendedLifetime(pruned) {}
  }

  /// Removes the members nothing needs from `state`; returns them, to be released after the
  /// lock.
  private func prune(_ state: inout FamilyMembers<Key, D>) -> [D.Injection] {
    var pruned: [D.Injection] = []
    for key in Array(state.members.keys) {
      if case .pruned(let member) = check(key, in: &state) {
        pruned.append(member)
      }
    }
    state.pruning.pruned(leaving: state.members.count)
    state.slotsEnded = 0
    (state.sweepOrder, state.sweepStart) = (Array(state.members.keys), 0)
    shrinkIfSparse(&state)
    return pruned
  }

  /// Makes room in `members` for one more, growing it by hand if it is full.
  ///
  /// The standard library's dictionary grows by rehashing every key, and stops the program, with
  /// a message that names neither Inject nor the family, when it finds two equal keys, which a
  /// `Key` whose `hash(into:)` disagrees with its `==` makes. Grown here, into a table made
  /// large enough first, every key is added by ``keep(_:for:in:)``, which names them.
  private func makeRoom(in members: inout [Key: D.Injection]) {
    guard members.count == members.capacity else { return }
    var grown = [Key: D.Injection](minimumCapacity: max(1, members.capacity * 2))
    for (key, member) in members {
      keep(member, for: key, in: &grown)
    }
    members = grown
  }

  /// Adds `member` to `members` for `key`, which `members` has room for and does not hold.
  ///
  /// An equal key found there has another hash: `Key`'s `hash(into:)` disagrees with its `==`,
  /// and the family cannot tell which member is the key's. It stops the program with a message
  /// that names the family and `Key`, where the standard library's dictionary would stop with
  /// one that names neither, or go on with two members for equal keys.
  private func keep(_ member: D.Injection, for key: Key, in members: inout [Key: D.Injection]) {
    guard members.updateValue(member, forKey: key) == nil else {
      fatalError(
        "\(identity.label): two equal keys of type \(Key.self) have different hashes, so the family cannot keep one "
          + "member per key. To fix this, make \(Key.self)'s hash(into:) combine exactly the properties that its == "
          + "compares (a synthesized Hashable conformance does).")
    }
  }

  /// Checks the members in ``FamilyMembers/sweepOrder``, the one checked longest ago first, and
  /// removes those nothing needs from `state`, until those it found still needed (they go to the
  /// end of the order) outnumber those it removed by two, or it has checked every member once;
  /// returns those it removed, to be released after the lock.
  ///
  /// A build of a `.shared` instance calls it: such instances die unseen, as their last holder
  /// lets them go, and leave their members to be pruned. The build pays for two members checked
  /// and kept, and each member removed, which its own addition paid for, pays for one more: a
  /// look-up pays nothing. So a build that reaches the members of instances released together
  /// prunes them all, however many (one that first meets two members still needed stops there,
  /// and a later build goes on); and a member whose instance died is pruned at the latest once
  /// the family has built half as many `.shared` instances as the members it keeps.
  private func sweep(_ state: inout FamilyMembers<Key, D>) -> [D.Injection] {
    var pruned: [D.Injection] = []
    var (kept, unchecked) = (0, state.sweepOrder.count - state.sweepStart)
    while kept < 2 + pruned.count, unchecked > 0 {
      let key = state.sweepOrder[state.sweepStart]
      (state.sweepStart, unchecked) = (state.sweepStart + 1, unchecked - 1)
      switch check(key, in: &state) {
      case .pruned(let member):
        pruned.append(member)
      case .kept:
        state.sweepOrder.append(key)
        kept += 1
      case .absent:
        break
      }
    }
    // What was checked is dropped once it is half the order: each check pays a constant share.
    if state.sweepStart * 2 >= state.sweepOrder.count {
      (state.sweepOrder, state.sweepStart) = (Array(state.sweepOrder[state.sweepStart...]), 0)
    }
    if !pruned.isEmpty {
      shrinkIfSparse(&state)
    }
    return pruned
  }

  /// Gives the table's storage back once it holds a quarter of what it has room for: what it
  /// copies, the members removed since it last grew or shrank paid for.
  private func shrinkIfSparse(_ state: inout FamilyMembers<Key, D>) {
    guard state.members.capacity > 4 * max(64, state.members.count) else { return }
    var members = [Key: D.Injection](minimumCapacity: state.members.count)
    for (key, member) in state.members {
      keep(member, for: key, in: &members)
    }
    state.members = members
  }

  /// Removes the member for `key` from `state` if nothing needs it.
  private func check(_ key: Key, in state: inout FamilyMembers<Key, D>) -> Check {
    // Taken out of the table, so that the table's is the only other reference the check sees.
    guard var member = state.members.removeValue(forKey: key) else { return .absent }
    // Uniquely referenced: no consumer, override, scope, test stack or resolution holds it.
    // Exact, since only this table, behind the lock, hands a member out.
    if isKnownUniquelyReferenced(&member), !Self.isNeeded(member) {
      return .pruned(member)
    }
    // Put back where it was taken from: the table has room.
    keep(member, for: key, in: &state.members)
    return .kept
  }

  /// What ``check(_:in:)`` found.
  private enum Check {
    /// Nothing needed the member: removed, to be released after the lock.
    case pruned(D.Injection)
    /// Still needed: left in the table.
    case kept
    /// The table has no member for the key.
    case absent
  }

  /// Whether a member that nothing else holds must still be kept: it has overrides of its own,
  /// or a world (the global one, or one alive) holds an instance in a slot of one of its layers
  /// (those its family's overrides made for it included), which a member made again would not
  /// see.
  private static func isNeeded(_ member: D.Injection) -> Bool {
    // Read once, under the stack's guard.
    let global = D.globalSnapshot(of: member)
    if let global, global.layers.count > global.familyDepth {
      return true
    }
    let publication = D.publication(of: member)
    // The common case first: an instance in the global world, which the published layer keeps.
    if D.holdsInstance(publication.published.slot) {
      return true
    }
    // The stacks hold only `Layer<D>`s of the member, and its family's overrides make only
    // `Layer<D>`s for it.
    let stacked = ((global?.layers ?? []) + (publication.family?.madeLayers ?? [])).map { Layer<D>.unerased($0) }
    let layers = [publication.published] + (publication.testLayer.map { [$0] } ?? []) + stacked
    if layers.contains(where: { D.holdsInstance($0.slot) }) {
      return true
    }
    // A part of `D` holds only `D.Slot`s for `D`'s layers.
    return World.parts(keepingSlotsOf: layers.map(ObjectIdentifier.init)).contains { layer, part in
      D.part(of: nil).withPart(ofSameKind: part.object) { $0.slots[LayerKey(layer)] }.map {
        D.holdsInstance(D.Slot.unerased($0.slot))
      } ?? false
    }
  }

  // MARK: Overrides of the whole family

  /// Pushes an override of every member, whose layer for a key `source` makes, given at
  /// `location` in `function`.
  ///
  /// On the current test's stack of the family in a test world, else on the global one, at the
  /// next epoch of that stack's rollback log.
  func push(
    _ source: @escaping @Sendable (Key) -> Layer<D>.Source, at location: CodeLocation, in function: StaticString
  ) {
    let source = FamilyKey<Key>.erasing(source)
    let depth: Int
    if let world = World.current, let test = world.testOverrides {
      let override = FamilyOverride<D>(
        strategy: strategy, location: location, origin: .testOverride(depth: test.familyDepth(of: identity) + 1),
        pushEpoch: test.log.push(D.kind), source: source)
      world.strictCheck?.noteGiven(
        override.token, at: location, of: identity, label: identity.label, pushedIn: function)
      depth = test.pushFamilyOverride(override, of: identity, isMainActor: D.kind == .mainActor)
    } else {
      GlobalPushChecks.check(at: location, shadowing: firstResolutionShadowed()) { record($0, at: location) }
      depth = state.withLock { state in
        let override = FamilyOverride<D>(
          strategy: strategy, location: location, origin: .override(depth: state.globalOverrides.count + 1),
          pushEpoch: RollbackLog.global.push(D.kind), source: source)
        state.globalOverrides.append(override)
        for member in state.members.values {
          // Every member was made with a link.
          guard let link = D.publication(of: member).family else { continue }
          D.withGlobalStack(of: member) { $0.pushFamilyLayer(override.makeLayer(for: link)) }
        }
        return state.globalOverrides.count
      }
    }
    record(.overridePushed(depth: depth), at: location)
  }

  /// Where a consumer of the global world first resolved one of the members that a push onto
  /// the family's global stack would shadow, if any did: a member with no override of its own,
  /// whose top the family's overrides are.
  private func firstResolutionShadowed() -> CodeLocation? {
    state.withLock { state in
      state.members.values.lazy.compactMap { member in
        D.withGlobalStack(of: member) { $0.ownDepth == 0 ? $0.notes.firstResolvedAt : nil }
      }.first
    }
  }

  /// Pops the overrides of the whole family until `leaving(count)` are left.
  ///
  /// The current test's in a test world, else the global ones. Empties what their worlds stored
  /// since the first popped was pushed, as an injection's rollback does. Tells the telemetry,
  /// with `location`, how many are left, or that there was none to pop.
  func rollback(leaving: (Int) -> Int, at location: CodeLocation) {
    let (popped, left) = pop(leaving: leaving)
    record(popped == 0 ? .nothingToRollBack : .rolledBack(depth: left), at: location)
  }

  /// Pops as ``rollback(leaving:at:)`` does; returns how many were popped and left.
  private func pop(leaving: (Int) -> Int) -> (popped: Int, left: Int) {
    let test = World.current?.testOverrides
    let (overrides, layers, left): ([FamilyOverride<D>], [any AnyObject & Sendable], Int)
    if let test {
      let (popped, count) = test.popFamilyOverrides(of: identity, leaving: leaving)
      // Only `push` stores them, `FamilyOverride<D>`s. The test's members drop the layers they
      // made when they next make one.
      overrides = popped.map { FamilyOverride<D>.unerased($0) }
      (layers, left) = (overrides.flatMap { $0.popped() } as [any AnyObject & Sendable], count)
    } else {
      (overrides, layers, left) = state.withLock { state in
        let (overrides, left) = state.globalOverrides.pop(leaving: leaving)
        var layers: [any AnyObject & Sendable] = []
        for member in state.members.values {
          for _ in overrides {
            if let layer = D.withGlobalStack(of: member, { $0.popFamilyLayer() }) {
              layers.append(layer)
            }
          }
        }
        return (overrides, layers, left)
      }
    }
    guard let first = overrides.first else { return (0, left) }
    // Nothing resolves from the popped layers any more: the worlds of their stack forget them.
    // Every change of state is made before what the layers and the emptied slots held is
    // released: a `deinit` among them sees the final stacks.
    let released = Engine<D>.forgetting(
      popped: layers, from: test?.log ?? RollbackLog.global, at: first.pushEpoch, logged: overrides.count)
    withExtendedLifetime((overrides, layers, released)) {}
    return (overrides.count, left)
  }

  /// How many overrides of the whole family are on the stack that ``push(_:at:in:)`` pushes
  /// onto here.
  var overrideCount: Int {
    if let test = World.current?.testOverrides {
      return test.familyDepth(of: identity)
    }
    return state.withLock { $0.globalOverrides.count }
  }

  /// A world inside the current task's, where every member resolves from a layer that `source`
  /// makes for its key, unless the member has a scoped override of its own.
  func scope(
    _ source: @escaping @Sendable (Key) -> Layer<D>.Source, decorates: Bool, at location: CodeLocation
  ) -> World {
    let parent = World.current
    let override = FamilyOverride<D>(
      strategy: strategy, location: location, origin: .scoped, pushEpoch: 0, source: FamilyKey<Key>.erasing(source))
    let world = World(
      parent: parent, overridingFamily: FamilyScope(identity, with: override, decorating: decorates, in: parent))
    world.strictCheck?.noteGiven(override.token, at: location, of: identity, label: identity.label)
    return world
  }

  /// Records `kind` for the family at `location`: to the telemetry, or as a debug warning if it
  /// is a misuse.
  private func record(_ kind: InjectionEvent.Kind, at location: CodeLocation) {
    SendableTelemetry.record(kind, injection: identity.name, publishedAt: identity.location, at: location)
  }
}
