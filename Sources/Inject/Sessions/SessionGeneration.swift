/// One generation of one session in one world: what began at the first resolution of the
/// session's injections there, of either kind, and ends with ``InjectionSession/end(fileID:line:)``.
///
/// It lists, weakly, every slot whose instance belongs to it: the slots of the session's
/// injections, and the slots of every instance whose build resolved one of theirs, directly or
/// through nested builds. Ending it empties each slot that still holds such an instance: a slot
/// that stored another instance since lists its own generations.
///
/// Sendable injections store into it from any thread, so its state is behind a lock. A store
/// joins the generation before it keeps the instance, with the slot guarded (``add(_:owner:)``):
/// a generation that ended first refuses it, and one that ends after empties the slot once the
/// store is done. So no instance built with an ended generation is handed to a new consumer.
final class SessionGeneration: Sendable {
  let session: InjectionSession
  private let state = Locked(State())

  private struct State: Sendable {
    /// The slots that stored an instance belonging to this generation.
    var members: [Member] = []
    /// The session's own instances built in this generation that a slot let go of (at the
    /// end, in a rollback, or with a popped layer), watched for survivors.
    ///
    /// Watched only once let go: a weak reference moves an object's reference counts to a side
    /// table, which would make every retain of an instance still handed out slower.
    var built: [BuiltInstance] = []
    /// What the survivor report names of each listed slot that holds one of the session's own
    /// instances, by the slot's identifier.
    var owners: [ObjectIdentifier: Owner] = [:]
    /// Where the generation ended, once it has.
    var endedAt: CodeLocation?
    /// When `members` and `built` are pruned, which forgets the entries of released objects.
    var pruning = PruneSchedule()
  }

  private struct Member: Sendable {
    weak var slot: (any EngineSlot)?
  }

  /// An instance of the session's injections, watched through a weak reference, with its
  /// identifier and type, taken while the slot that let it go still held it: so that a survivor
  /// check needs no strong reference to it, which, held while the check walks the graph, would
  /// outlive the holder that lets go meanwhile on another thread.
  struct BuiltInstance: Sendable {
    let object: WeakInstance
    let identifier: ObjectIdentifier
    let type: any AnyObject.Type
    let owner: Owner

    /// Whether the instance is alive: a weak reference loaded and let go at once.
    var isAlive: Bool { object.object != nil }
  }

  /// An object held weakly.
  // NB: `@unchecked Sendable` because an instance of a main-actor injection is not `Sendable`.
  // It is safe: such an instance is added here only by the main actor (a main-actor slot is
  // emptied there alone) and read only by the survivor report, which runs on the main actor; an
  // instance of a sendable injection is `Sendable`. The reference is loaded atomically.
  struct WeakInstance: @unchecked Sendable {
    weak var object: AnyObject?
  }

  /// The injection whose layer built one of the session's own instances, and its strategy: as
  /// the survivor report names them, without holding the publication, whose factories may hold
  /// other injections and what they keep (a generation ended long ago must not).
  struct Owner: Sendable {
    /// The kind of the injection.
    let kind: InjectionKind
    /// The type of its instances.
    let valueType: any Any.Type
    /// Where the injection was published.
    let location: CodeLocation
    /// The strategy of the layer that built the instance.
    let strategy: Strategy

    init(_ publication: any PublishedInjection, strategy: Strategy) {
      (kind, valueType, location) = (publication.kind, publication.valueType, publication.location)
      self.strategy = strategy
    }

    /// The injection's type, `SendableInjection<Cart>`.
    var injectionType: String { "\(kind.typeName)<\(valueType)>" }
    /// The injection's label, `SendableInjection<Cart> (Shop/Cart.swift:3)`, as its publication's.
    var label: String { "\(injectionType) (\(location))" }
  }

  init(of session: InjectionSession) {
    self.session = session
  }

  /// Where the generation ended, once it has.
  var endedAt: CodeLocation? { state.withLock { $0.endedAt } }

  /// Lists `slot`, which is about to store an instance that belongs to this generation: one of
  /// the session's own, built by `owner`, or one built with them.
  ///
  /// Returns `false`, listing nothing, if the generation has ended: the instance must not be
  /// stored.
  func add(_ slot: some EngineSlot, owner: Owner?) -> Bool {
    state.withLock { state in
      guard state.endedAt == nil else { return false }
      state.members.append(Member(slot: slot))
      if let owner {
        state.owners[ObjectIdentifier(slot)] = owner
      }
      if state.pruning.isDue(state.members.count) {
        // Each slot once, and only those still alive.
        var seen: Set<ObjectIdentifier> = []
        state.members.removeAll { member in
          guard let slot = member.slot else { return true }
          return !seen.insert(ObjectIdentifier(slot)).inserted
        }
        state.owners = state.owners.filter { seen.contains($0.key) }
        state.built.removeAll { !$0.isAlive }
        state.pruning.pruned(leaving: max(state.members.count, state.built.count))
      }
      return true
    }
  }

  /// Watches `kept`, what emptying `slot` returned, if it was one of `generation`'s own; returns
  /// it, for the caller to release once no state is being changed any more.
  static func watching(_ generation: SessionGeneration?, of slot: AnyObject, kept: Any?) -> Any? {
    if let generation, let kept {
      generation.watch(kept, from: ObjectIdentifier(slot))
    }
    return kept
  }

  /// Watches `instance`, which the slot `slot` let go of, if it is an object of the session's
  /// injections: an optional's wrapped object too.
  private func watch(_ instance: Any, from slot: ObjectIdentifier) {
    guard let unwrapped = unwrappingOptionals(instance, of: type(of: instance)),
      type(of: unwrapped) is AnyClass
    else { return }
    let object = unwrapped as AnyObject
    state.withLock { state in
      guard let owner = state.owners[slot] else { return }
      state.built.append(
        BuiltInstance(
          object: WeakInstance(object: object), identifier: ObjectIdentifier(object), type: Swift.type(of: object),
          owner: owner))
    }
  }

  /// Ends the generation at `location`, on the main actor, which may empty a slot of either
  /// kind.
  ///
  /// Empties every listed slot that still holds an instance of it. Returns what the slots kept,
  /// for the caller to release once no state is being changed any more.
  @MainActor
  func end(at location: CodeLocation) -> [Any] {
    let members = state.withLock { state in
      state.endedAt = location
      return state.members
    }
    var released: [Any] = []
    for member in members {
      if let slot = member.slot, let kept = slot.emptyOnMainActor(ifIn: self) {
        released.append(kept)
      }
    }
    state.withLock { state in
      (state.members, state.owners) = ([], [:])
      state.built.removeAll { !$0.isAlive }
    }
    return released
  }

  /// The instances of this ended generation that are still alive, with what names each; held
  /// weakly, so that a holder that lets go meanwhile releases the instance at once.
  @MainActor
  var survivors: [BuiltInstance] {
    state.withLock { $0.built }.filter(\.isAlive)
  }
}

/// One world's generations: the current one of each session resolved there, and those ended
/// there that may have survivors.
struct SessionTable: Sendable {
  /// The current generation of each session, by the session's identifier.
  private var current: [ObjectIdentifier: SessionGeneration] = [:]
  /// The generations ended here that may have survivors, oldest first.
  private(set) var ended: [SessionGeneration] = []
  /// When `ended` is pruned, which forgets the generations with no survivor left: so that
  /// ending a session costs the same however many ended before it.
  private var pruning = PruneSchedule()

  init() {}

  /// The current generation of `session`, begun now if there is none.
  mutating func generation(of session: InjectionSession) -> SessionGeneration {
    if let generation = current[ObjectIdentifier(session)] {
      return generation
    }
    let generation = SessionGeneration(of: session)
    current[ObjectIdentifier(session)] = generation
    return generation
  }

  /// Removes the current generation of `session`, if there is one, to end it.
  mutating func take(_ session: InjectionSession) -> SessionGeneration? {
    current.removeValue(forKey: ObjectIdentifier(session))
  }

  /// Keeps `generation`, just ended, for survivor reports.
  mutating func noteEnded(_ generation: SessionGeneration) {
    ended.append(generation)
  }

  /// Forgets the ended generations with no survivor left, once there are many: amortized, so
  /// that each `end()` costs the same however many generations ended before it.
  @MainActor
  mutating func pruneEnded() {
    guard pruning.isDue(ended.count) else { return }
    ended.removeAll { $0.survivors.isEmpty }
    pruning.pruned(leaving: ended.count)
  }
}
