/// A scope's world: the instances that every injection, of either kind, resolved inside a scope
/// keeps there, never in the global layers, and the scoped overrides that apply there.
///
/// `withOverride`, `withIsolatedInjections` and the testing traits each open a new world, the
/// current task's innermost: a task-local value, so child tasks and unstructured tasks inherit
/// it for their whole life, detached tasks do not, and other tasks never see it. A world starts
/// empty and reads the global configuration live; the overrides of the enclosing worlds still
/// apply inside it.
///
/// A world is two things apart: its configuration (``WorldConfiguration``: the overrides and the
/// test's checks), which consumers made in it keep, and its storage (``WorldStorage``: the
/// instances), which only worlds keep. A world keeps of the worlds around it only their
/// configuration, never their storage: so a storage is released when its scope has ended and no
/// task that inherited a world of it is alive, whatever worlds nested in it live on, and whatever
/// consumers remember it. A consumer that reads after that resolves in a world of the same
/// configuration with a storage made again (``WorldConfiguration/isWithin(_:)``).
///
/// Each kind of injection keeps its slots in its own part of the storage, under its own guard
/// (``Door/withPart(of:_:)``): the main actor's, or a lock.
@usableFromInline
final class World: Sendable {
  /// The current task's innermost world, or `nil` for the global one.
  @usableFromInline
  static var current: World? {
    let world = Current.world
    return world.isGlobal ? nil : world
  }

  /// What the world resolves with.
  let configuration: WorldConfiguration
  /// What the world stores.
  let storage: WorldStorage
  /// The storage's main-actor part, read from here with no other load or retain.
  // NB: `nonisolated(unsafe)`; see `WorldStorage.mainActorPart`: only `mainActorPart(of:)`,
  // `mainActorSlot` and `mainActorResolved`, which are main-actor-isolated, touch what it holds.
  private nonisolated(unsafe) let mainActorPart: Cell<WorldPart>
  /// The storage's sendable part.
  private let sendablePart: Locked<WorldPart>
  /// Whether this is ``global``, which stands for no world.
  private let isGlobal: Bool

  /// What the task-local names outside every world: not a world, so that the task-local holds
  /// a class rather than an optional, whose copy costs more on every read.
  fileprivate static let global = World()

  /// ``global``: uncounted, it changes nothing of resolution.
  private init() {
    configuration = WorldConfiguration(
      parent: nil, overriding: nil, overridingFamily: nil, isTest: false, leakWatch: nil, strictCheck: nil,
      graphCheck: nil)
    storage = WorldStorage(isMadeAgain: false)
    (mainActorPart, sendablePart, isGlobal) = (storage.mainActorPart, storage.sendablePart, true)
  }

  /// Whether this is a test world, where injections resolve their test value by default.
  var isTest: Bool { configuration.isTest }
  /// The override stacks of the test this world belongs to, if it is a test world.
  var testOverrides: TestOverrides? { configuration.testOverrides }
  /// Where the instances built in this world are watched, for a leak report.
  var leakWatch: LeakWatch? { configuration.leakWatch }
  /// A strict test's check.
  var strictCheck: StrictCheck? { configuration.strictCheck }

  /// A world inside `parent` (`nil`: the global world), with `parent`'s overrides and `scoped`
  /// in place of the one it replaces; a test world if `isTest` or `parent` is one, with the
  /// checks given, or `parent`'s; with a storage of its own.
  convenience init(
    parent: World?, overriding scoped: ScopedOverride? = nil, overridingFamily familyScope: FamilyScope? = nil,
    isTest: Bool = false, leakWatch: LeakWatch? = nil, strictCheck: StrictCheck? = nil,
    graphCheck: (@MainActor @Sendable () -> Void)? = nil
  ) {
    let configuration = WorldConfiguration(
      parent: parent?.configuration, overriding: scoped, overridingFamily: familyScope, isTest: isTest,
      leakWatch: leakWatch, strictCheck: strictCheck, graphCheck: graphCheck)
    self.init(configuration)
  }

  /// A world of `configuration`, with the storage that its worlds share while one of them
  /// lives (``WorldConfiguration/openStorage()``).
  ///
  /// It may be created on any thread. The main actor learns that it is alive (resolution there
  /// then reads the current task's world) before anything that code in this world can enqueue
  /// on the main actor (``WorldNotices``).
  init(_ configuration: WorldConfiguration) {
    self.configuration = configuration
    let storage = configuration.openStorage()
    (self.storage, self.mainActorPart, self.sendablePart) = (storage, storage.mainActorPart, storage.sendablePart)
    isGlobal = false
    WorldCount.increment()
    SendableFastPath.increment()
    WorldNotices.note(alive: true)
  }

  deinit {
    configuration.release(storage)
    WorldCount.decrement()
    SendableFastPath.decrement()
    WorldNotices.note(alive: false)
  }

  // MARK: - Running in the world

  /// Runs `operation` in this world, then the graph check, if any, on the main actor: at once
  /// if the caller runs there, else in a main-actor task that keeps the world until it has run.
  func run<R>(_ operation: () throws -> R) rethrows -> R {
    try enter {
      defer { checkGraph() }
      return try operation()
    }
  }

  /// Runs the asynchronous `operation` in this world, in `isolation`; see ``run(_:)``.
  func run<R>(isolation: isolated (any Actor)?, _ operation: () async throws -> R) async rethrows -> R {
    try await enter(isolation: isolation) {
      defer { checkGraph() }
      return try await operation()
    }
  }

  /// Runs `operation` in this world, with no check at its end: for a world that is not a scope's
  /// own, such as the one a late consumer resolves in.
  func enter<R>(_ operation: () throws -> R) rethrows -> R {
    try Current.$world.withValue(self, operation: operation)
  }

  /// Runs the asynchronous `operation` in this world, in `isolation`, with no check at its end.
  func enter<R>(isolation: isolated (any Actor)?, _ operation: () async throws -> R) async rethrows -> R {
    try await Current.$world.withValue(self, operation: operation, isolation: isolation)
  }

  /// Runs `operation` in the global world, outside every scope.
  static func outsideEveryWorld<R>(_ operation: () throws -> R) rethrows -> R {
    try Current.$world.withValue(global, operation: operation)
  }

  /// Runs the asynchronous `operation` in the global world, in `isolation`.
  static func outsideEveryWorld<R>(
    isolation: isolated (any Actor)?, _ operation: () async throws -> R
  ) async rethrows -> R {
    try await Current.$world.withValue(global, operation: operation, isolation: isolation)
  }

  /// Runs the graph check of this world, if any, on the main actor.
  private func checkGraph() {
    guard let graphCheck = configuration.graphCheck else { return }
    MainActorHop.run { [self] in
      withExtendedLifetime(self) { graphCheck() }
    }
  }

  // MARK: - What the world holds

  /// The scoped override of `injection` that applies in this world, if any.
  func override(of injection: AnyObject) -> ScopedOverride? {
    configuration.override(of: injection)
  }

  /// The scoped override of the family `identity` that applies in this world, if any.
  func familyScope(of identity: FamilyIdentity) -> FamilyScope? {
    configuration.familyScope(of: identity)
  }

  /// The main-actor injections' part of `world` (`nil`: the global world), behind its cell.
  @MainActor
  static func mainActorPart(of world: World?) -> Cell<WorldPart> {
    world?.mainActorPart ?? globalMainActorPart
  }

  /// The sendable injections' part of `world` (`nil`: the global world), behind its lock.
  static func sendablePart(of world: World?) -> Locked<WorldPart> {
    world?.sendablePart ?? globalSendablePart
  }

  /// Runs `body` with the session generations of `world` (`nil`: the global world).
  static func withSessions<R>(of world: World?, _ body: (inout SessionTable) -> R) -> R {
    (world?.storage.sessions ?? globalSessions).withLock(body)
  }

  /// The global world's part of the main-actor injections: what the graph lists of it (their
  /// slots are in their layers).
  // NB: `nonisolated(unsafe)`; see `WorldStorage.mainActorPart`: only `mainActorPart(of:)`, which
  // is main-actor-isolated, touches it.
  private nonisolated(unsafe) static let globalMainActorPart = Cell.make(WorldPart())
  /// The global world's part of the sendable injections.
  private static let globalSendablePart = Locked(WorldPart())
  /// The global world's session generations.
  private static let globalSessions = Locked(SessionTable())

  /// How many slots this world keeps, of both kinds.
  @MainActor
  var slotCount: Int {
    mainActorPart.access { $0.slots.count } + sendablePart.withLock { $0.slots.count }
  }

  /// How many slots this world lists as stored, for the graph, of both kinds.
  @MainActor
  var storedCount: Int {
    mainActorPart.access { $0.registered.count } + sendablePart.withLock { $0.registered.count }
  }

  /// The slot of `layer` in this world's part of `D`, made now if there is none.
  @inline(__always)
  func slot<D: Door>(for layer: Layer<D>, _: D.Type, resolvedBy reader: WorldPart.Reader?) -> D.Slot {
    var isNew = false
    let slot = D.slot(for: layer, in: self, resolvedBy: reader, isNew: &isNew)
    if isNew {
      noteSlot(of: layer, D.self)
    }
    // Only the door's part holds its slots: `D.Slot`s.
    return D.Slot.unerased(slot)
  }

  /// The slot of the layer `layer` (by identity) in the main-actor injections' part, or the one
  /// that `make` makes with the layer if there is none, which `isNew` then says.
  @MainActor
  func mainActorSlot(
    for layer: ObjectIdentifier, resolvedBy reader: WorldPart.Reader?, isNew: inout Bool,
    _ make: () -> WorldPart.Entry
  ) -> any EngineSlot {
    mainActorPart.access { $0.slot(for: layer, resolvedBy: reader, isNew: &isNew, make) }
  }

  /// What the main-actor injections' part kept from its last resolution of `engine`'s injection
  /// (``WorldPart/resolved(by:at:)``).
  @MainActor
  func mainActorResolved(by engine: AnyObject, at changes: UInt64) -> (any EngineSlot)? {
    mainActorPart.access { $0.resolved(by: engine, at: changes) }
  }

  /// The slot of the layer `layer` (by identity) in the sendable injections' part, or the one
  /// that `make` makes with the layer if there is none, which `isNew` then says.
  func sendableSlot(
    for layer: ObjectIdentifier, resolvedBy reader: WorldPart.Reader?, isNew: inout Bool,
    _ make: () -> WorldPart.Entry
  ) -> any EngineSlot {
    sendablePart.withLock { $0.slot(for: layer, resolvedBy: reader, isNew: &isNew, make) }
  }

  /// What the sendable injections' part kept from its last resolution of `engine`'s injection
  /// (``WorldPart/resolved(by:at:)``): a function of the world's, where the lock's body is
  /// specialized (through ``sendablePart(of:)`` from the door, a hit cost 176 instructions more).
  func sendableResolved(by engine: AnyObject, at changes: UInt64) -> (any EngineSlot)? {
    sendablePart.withLock { $0.resolved(by: engine, at: changes) }
  }

  // MARK: - Forgetting popped layers

  /// The parts of worlds that keep a slot of each layer that is not a scope's own, held weakly,
  /// by the layer's identifier: so that a global layer that is popped, or released with its
  /// injection, can leave every world that stored what it built, visiting those alone.
  ///
  /// It holds the parts, not the worlds: a weak reference moves an object's reference counts to
  /// a side table, which would make every retain and release of a world slower, and resolution
  /// retains the current world on every read of it.
  private static let holders = Locked(Holders())

  private struct Holders: Sendable {
    var parts: [ObjectIdentifier: [WeakPart]] = [:]
    /// How many parts `parts` lists, under every layer.
    var count = 0
    /// When `parts` is pruned, which forgets the parts released, and the layers that no part
    /// alive holds: so that each world costs the same however many came before, and a layer
    /// that lives on (a published one) keeps only the parts alive.
    var pruning = PruneSchedule()
  }

  /// A world's part, held weakly: a main-actor part's cell, or a sendable part's lock.
  // NB: `@unchecked Sendable` because a main-actor part's cell is not `Sendable`. It is safe: the
  // reference is only loaded (atomically, as every weak reference is) and read back as the guard
  // of a part of its kind (`WorldPartGuard.withPart(ofSameKind:_:)`), which the engine reaches
  // through that kind's door only: a main-actor part on the main actor.
  private struct WeakPart: @unchecked Sendable {
    weak var part: AnyObject?
  }

  /// Notes that this world made a slot for `layer` in the part of `D`: unless it is a scope's own
  /// layer, which is released with the worlds that hold its slots and never popped, the holders
  /// of each layer list the part, for ``forget(_:_:)``.
  ///
  /// A layer popped already (a resolution on another thread read the stack before the pop) is
  /// not listed: its slot is forgotten here at once, as the pop's ``forget(_:_:)``, which could
  /// not find it, would have.
  private func noteSlot<D: Door>(of layer: Layer<D>, _: D.Type) {
    // A family's scoped override is the family's, not the scope's own: its layers are listed, so
    // that the family sees what they hold and its member's release forgets them.
    guard layer.origin != .scoped || layer.isFamilyOverrides else { return }
    let part = D.part(of: self)
    let isPopped = Self.holders.withLock { holders in
      // The pop marked it before it took this lock to find the parts to forget the layer in.
      if layer.isPopped {
        return true
      }
      holders.parts[ObjectIdentifier(layer), default: []].append(WeakPart(part: part))
      holders.count += 1
      if holders.pruning.isDue(holders.count) {
        holders.parts = holders.parts.compactMapValues { parts in
          let alive = parts.filter { $0.part != nil }
          return alive.isEmpty ? nil : alive
        }
        holders.count = holders.parts.values.reduce(0) { $0 + $1.count }
        holders.pruning.pruned(leaving: holders.count)
      }
      return false
    }
    if isPopped {
      // Released once nothing is being changed: what another thread stored in the slot meanwhile.
      withExtendedLifetime(Self.empty(D.withPart(of: self) { $0.forget([ObjectIdentifier(layer)]) }, D.self)) {}
    }
  }

  /// Marks `layers`, `Layer<D>`s popped from a stack, popped: before ``forget(_:_:)`` looks for
  /// the worlds that keep their slots, so that a world that makes one later forgets it itself.
  static func notePopped<D: DoorTypes>(_ layers: [any AnyObject & Sendable], _: D.Type) {
    holders.withLock { _ in
      for layer in layers {
        // The stacks hold only `Layer<D>`s.
        Layer<D>.unerased(layer).isPopped = true
      }
    }
  }

  /// Whether `layer` was popped (``notePopped(_:_:)``): read under the lock it is marked under,
  /// so that a caller that asks under a part's guard, after the pop forgot the layer in that
  /// part, sees the mark.
  static func isPopped<D: DoorTypes>(_ layer: Layer<D>) -> Bool {
    holders.withLock { _ in layer.isPopped }
  }

  /// The parts of the worlds alive, other than the global one, that keep a slot of any of
  /// `layers`, and which layer's: so that a family can tell whether one of them holds an
  /// instance.
  static func parts(keepingSlotsOf layers: [ObjectIdentifier]) -> [(ObjectIdentifier, PartReference)] {
    holders.withLock { holders in
      layers.flatMap { layer in
        (holders.parts[layer] ?? []).compactMap { $0.part.map { (layer, PartReference(object: $0)) } }
      }
    }
  }

  /// How many parts ``holders`` lists.
  static var holderCount: Int { holders.withLock { $0.count } }

  /// Makes every world alive, and the global world's list for the graph, forget the slots of
  /// `layers`, global layers of `D` popped or released with their injection, which nothing
  /// resolves from again.
  ///
  /// Returns what the slots held, and the slots, for the caller to release once no state is
  /// being changed any more (their instances' `deinit` may resolve or push). A session's
  /// instance goes with its slot: watched for the survivor report, as a rollback's.
  static func forget<D: Door>(_ layers: [ObjectIdentifier], _: D.Type) -> [Any] {
    let identifiers = Set(layers)
    let parts: [PartReference] = holders.withLock { holders in
      var parts: [PartReference] = []
      for layer in layers {
        guard let held = holders.parts.removeValue(forKey: layer) else { continue }
        holders.count -= held.count
        parts += held.compactMap { $0.part.map(PartReference.init) }
      }
      return parts
    }
    var slots = D.withPart(of: nil) { $0.forget(identifiers) }
    for part in parts {
      slots += D.part(of: nil).withPart(ofSameKind: part.object) { $0.forget(identifiers) }
    }
    return empty(slots, D.self)
  }

  /// Empties `slots`, forgotten by their parts; returns what they held, and the slots, for the
  /// caller to release once no state is being changed any more.
  private static func empty<D: Door>(_ slots: [any EngineSlot], _: D.Type) -> [Any] {
    var forgotten: [Any] = []
    for slot in slots {
      // Only the door's part holds its slots: `D.Slot`s.
      let slot = D.Slot.unerased(slot)
      if let kept = D.empty(slot) {
        forgotten.append(kept)
      }
      forgotten.append(slot)
    }
    return forgotten
  }
}

/// A world's part, held strongly while it is forgotten: a main-actor part's cell, or a
/// sendable part's lock.
// NB: `@unchecked Sendable`; see `World.WeakPart`.
struct PartReference: @unchecked Sendable {
  let object: AnyObject
}

/// What guards one kind's part of a world (``Door/part(of:)``): the main actor's cell, whose
/// conformance is main-actor-isolated, so that the compiler lets the engine reach the part only
/// there; or a lock.
protocol WorldPartGuard: Unerasable {
  /// Runs `body` with the part, which it may change, under the guard.
  func withPart<R>(_ body: (inout WorldPart) -> R) -> R
}

extension WorldPartGuard {
  /// Runs `body` with the part that `other` guards, under its guard: a part of the same kind as
  /// this one, which the index of the parts that hold each layer's slots keeps type-erased.
  ///
  /// Safe: the index lists a part under the layers of its own kind only, and the caller asks
  /// for the parts of the layers of this part's kind.
  func withPart<R>(ofSameKind other: AnyObject, _ body: (inout WorldPart) -> R) -> R {
    Self.unerased(other).withPart(body)
  }
}

extension Cell: @MainActor WorldPartGuard where Value == WorldPart {
  func withPart<R>(_ body: (inout WorldPart) -> R) -> R { access(body) }
}

extension Locked: WorldPartGuard where State == WorldPart {
  func withPart<R>(_ body: (inout WorldPart) -> R) -> R { withLock(body) }
}

/// One kind's part of a world: the slot of each layer resolved there, and the slots that
/// stored, for the graph.
struct WorldPart: Sendable {
  /// The slot of each `Layer<D>` resolved here, and the layer, by the layer's identifier.
  ///
  /// Each entry holds its layer, so that no other layer takes its identifier while its slot is
  /// here; a global layer, once popped or released with its injection, is forgotten by every
  /// world that holds its slot (``World/forget(_:_:)``).
  private(set) var slots: [LayerKey: Entry] = [:]
  /// The entry that ``slot(for:resolvedBy:isNew:_:)`` handed out last.
  ///
  /// A world's consumers often resolve one injection many times in a row: the next resolution of
  /// that injection, while no stack has changed, finds its layer and slot here with no read of
  /// its configuration (``resolved(by:at:)``); any other finds the slot with no look-up.
  /// ``forget(_:)`` drops it with its entry.
  private var last: Entry?
  /// The resolution that asked for ``last``, if it was one of the entry's own injection.
  private var lastReader: Reader?
  /// The slots that stored here, for the graph, by their layer's identifier, with the rank of
  /// their first store; each leaves with its slot.
  private var stored: [ObjectIdentifier: (rank: Int, entry: StoredEntry)] = [:]
  /// How many slots were listed here.
  private var storedCount = 0

  /// Whether no resolution touched this part: it holds nothing.
  var isEmpty: Bool { slots.isEmpty && stored.isEmpty && last == nil && lastReader == nil }

  /// The slots that stored here, in the order they first stored.
  var registered: [StoredEntry] {
    stored.values.sorted { $0.rank < $1.rank }.map(\.entry)
  }

  /// The families whose members' layers stored here, each with how many of its slots: the
  /// families to tell as the part ends, so that they prune the members nothing needs any more.
  var storingFamilies: [(family: FamilyIdentity, slots: Int)] {
    var families: [ObjectIdentifier: (family: FamilyIdentity, slots: Int)] = [:]
    for (_, entry) in stored.values {
      guard let family = entry.publication.family?.identity else { continue }
      families[ObjectIdentifier(family), default: (family, 0)].slots += 1
    }
    return Array(families.values)
  }

  /// Lists `entry`'s slot, unless it is listed already, or a rollback popped its layer while it
  /// built, which forgot the layer here: in a world's own part (`keepsSlots`), its layer's slot
  /// is no longer kept; in the global world's, whose slots are their layers', `isPopped` says so.
  mutating func register(_ entry: StoredEntry, keepsSlots: Bool, isPopped: () -> Bool) {
    guard stored[entry.layer] == nil else { return }
    if keepsSlots ? !keeps(entry.slot, of: entry.layer) : entry.origin != .published && isPopped() {
      return
    }
    storedCount += 1
    stored[entry.layer] = (storedCount, entry)
  }

  struct Entry: Sendable {
    let layer: any AnyObject & Sendable
    /// The layer's serial number (``Layer/serial``).
    let serial: UInt64
    let slot: any EngineSlot

    /// The entry of `layer`, with a new, empty slot.
    init<D: Door>(newSlotFor layer: Layer<D>) {
      (self.layer, serial, slot) = (layer, layer.serial, D.makeSlot())
    }
  }

  /// A resolution of an injection that read its stacks and found its top layer in a world: the
  /// injection's engine, held, so that no other takes its identifier, and the count of stack
  /// changes it read before the stacks (``StackChanges``).
  struct Reader: Sendable {
    let engine: any AnyObject & Sendable
    let changes: UInt64
  }

  /// The slot of the layer `layer`; made by `make`, with the layer, if there was none.
  ///
  /// `isNew` then says so. `reader`, if a resolution of the layer's own injection asks, is kept
  /// with it for ``resolved(by:at:)``.
  mutating func slot(
    for layer: ObjectIdentifier, resolvedBy reader: Reader?, isNew: inout Bool, _ make: () -> Entry
  ) -> any EngineSlot {
    let entry: Entry
    if let last, ObjectIdentifier(last.layer) == layer {
      entry = last
    } else if let kept = slots[LayerKey(layer)] {
      entry = kept
    } else {
      entry = make()
      slots[LayerKey(layer)] = entry
      isNew = true
    }
    (last, lastReader) = (entry, reader)
    return entry.slot
  }

  /// The slot of the top layer of the injection whose engine is `engine` that the last
  /// resolution here found, if it was that injection's and no stack changed since: `changes` is
  /// the count of changes read now, before the stacks.
  func resolved(by engine: AnyObject, at changes: UInt64) -> (any EngineSlot)? {
    guard lastReader?.changes == changes, lastReader?.engine === engine else { return nil }
    return last?.slot
  }

  /// Whether `slot` is the one kept here for the layer `layer`.
  private func keeps(_ slot: any EngineSlot, of layer: ObjectIdentifier) -> Bool {
    if let last, ObjectIdentifier(last.layer) == layer {
      return last.slot === slot
    }
    return slots[LayerKey(layer)]?.slot === slot
  }

  /// Forgets the slots of the layers `identifiers`; returns them.
  mutating func forget(_ identifiers: Set<ObjectIdentifier>) -> [any EngineSlot] {
    var forgotten: [any EngineSlot] = []
    for layer in identifiers {
      if let entry = slots.removeValue(forKey: LayerKey(layer)) {
        forgotten.append(entry.slot)
      }
    }
    if let last, identifiers.contains(ObjectIdentifier(last.layer)) {
      (self.last, lastReader) = (nil, nil)
    }
    for layer in identifiers {
      stored[layer] = nil
    }
    return forgotten
  }
}

/// How many world parts the index of the parts that hold each global layer's slots lists, the
/// released ones not yet forgotten included: for tests that it stays bounded by the worlds alive.
package func worldHolderCount() -> Int {
  World.holderCount
}

/// How many slots the current task's world keeps, or `nil` in the global world: for tests that
/// a world's memory stays flat.
@MainActor
package func slotCountInCurrentWorld() -> Int? {
  World.current?.slotCount
}

/// How many slots the current task's world lists as stored, or `nil` in the global world: for
/// tests that it lists no slot it no longer keeps.
@MainActor
package func storedSlotCountInCurrentWorld() -> Int? {
  World.current?.storedCount
}

/// The task-local that names the current world.
private enum Current {
  @TaskLocal static var world = World.global
}
