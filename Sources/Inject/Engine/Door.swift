/// The types of one kind of injection, which the engine's structures hold.
///
/// Nonisolated, so that a main-actor injection's layers can be made in its `nonisolated`
/// initializer and held by worlds that any thread reads. ``Door`` adds what the kind does.
@usableFromInline
protocol DoorTypes {
  /// The type of the injection's instances.
  associatedtype Value
  /// The injection: `Injection<Value>` or `SendableInjection<Value>`.
  associatedtype Injection: AnyObject & Sendable
  /// What builds an instance: `@MainActor () -> Value` or `@Sendable () -> Value`, boxed.
  associatedtype Factory: AnyObject & Sendable
  /// What decorates an instance: `@MainActor (Value) -> Value` or `@Sendable (Value) -> Value`,
  /// boxed.
  associatedtype Decorator: AnyObject & Sendable
  /// Where one world keeps what one layer built: ``InstanceSlot`` or ``SendableSlot``, each an
  /// ``EngineSlot``.
  associatedtype Slot: AnyObject & Sendable

  /// Which kind of injection this is, as messages name it.
  static var kind: InjectionKind { get }

  /// An empty slot, for a layer's global world; made on any thread.
  static func makeSlot() -> Slot
}

/// What really differs between the two kinds of injection, and nothing else: how a slot is
/// guarded and built once, where the chain of builds in progress lives, how events reach the
/// telemetry, and how the state each kind keeps is guarded.
///
/// The resolution algorithm is ``Engine``, written once over a door: the positions of the
/// configuration, delegation, build / decorate / store with exact rollback, and the diagnostic
/// hooks. `Injection` conforms on the main actor, an isolated conformance, so that the compiler
/// lets the engine resolve a main-actor injection only there; `SendableInjection` conforms from
/// any isolation.
protocol Door: DoorTypes where Slot: EngineSlot {
  // MARK: The injection's configuration

  /// What `injection` was published with.
  static func publication(of injection: Injection) -> Publication<Self>

  /// Runs `body` with the global stack of `injection` (its `Layer<Self>`s, and its notes), which
  /// it may change, under the stack's guard; what `body` changes, the fast path reads next.
  ///
  /// `body` runs no code of the user's: what it pops is released by the caller, afterwards.
  static func withGlobalStack<R>(of injection: Injection, _ body: (inout GlobalStack) -> R) -> R

  /// The global stack of `injection` as it is now (``GlobalStack/snapshot``), read once under its
  /// guard: what every resolution on the general path reads, apart from ``withGlobalStack(of:_:)``,
  /// whose result, generic, costs a metadata look-up in the engine, which is not specialized.
  static func globalSnapshot(of injection: Injection) -> (layers: [any AnyObject & Sendable], familyDepth: Int)?

  // MARK: Code of the user's

  /// A new instance from `factory`.
  static func make(_ factory: Factory) -> Value

  /// `instance` decorated by `decorator`.
  static func decorate(_ instance: Value, with decorator: Decorator) -> Value

  // MARK: Slots: the guard, and the once

  /// This kind's part of `world` (`nil`: the global world), behind its guard: the main actor's
  /// `Cell<WorldPart>`, whose conformance to ``WorldPartGuard`` is main-actor-isolated, so that
  /// the compiler lets the engine touch a main-actor part only there; or a `Locked<WorldPart>`.
  ///
  /// An existential, not an associated type, whose metadata would cost a cache look-up where the
  /// engine is not specialized for the door. For what every resolution in a world or store does,
  /// the door also has ``withPart(of:_:)``, ``slot(for:in:resolvedBy:isNew:)`` and
  /// ``resolved(in:by:at:)``: the part, returned, costs a retain and a release through its side
  /// table (the index of parts holds it weakly).
  static func part(of world: World?) -> any WorldPartGuard

  /// Runs `body` with this kind's part of `world` (`nil`: the global world), under its guard.
  static func withPart<R>(of world: World?, _ body: (inout WorldPart) -> R) -> R

  /// The slot of `layer` in this kind's part of `world`, made now if there is none, which
  /// `isNew` then says; kept with `reader` for the next resolution
  /// (``WorldPart/slot(for:resolvedBy:isNew:_:)``).
  static func slot(
    for layer: Layer<Self>, in world: World, resolvedBy reader: WorldPart.Reader?, isNew: inout Bool
  ) -> any EngineSlot

  /// The slot of the top layer of the injection whose engine is `engine` that this kind's part of
  /// `world` kept from its last resolution, if no stack changed since
  /// (``WorldPart/resolved(by:at:)``).
  static func resolved(in world: World, by engine: AnyObject, at changes: UInt64) -> (any EngineSlot)?

  /// The test's override stack of `injection`, bottom first, as it is now (`Layer<Self>`s), or
  /// `nil` if it is empty: read once, under the stacks' guard.
  static func testLayers(of injection: Injection, in test: TestOverrides) -> [any AnyObject & Sendable]?

  /// Runs `body` with this kind's override stacks of a test, under their guard.
  static func withStacks<R>(of test: TestOverrides, _ body: (inout TestStacks) -> R) -> R

  // The slot's operations are the door's, not a slot protocol's that `Slot` conforms to: the
  // main-actor slot could conform only on the main actor, and such an isolated conformance
  // cannot satisfy a requirement on `Slot`, which is `Sendable` (a layer holds its slot, and any
  // thread reaches layers). Through an existential, as `part(of:)` is, each call would look up
  // the slot type's generic metadata and witness table, where the engine is not specialized.

  /// The instance that `slot` keeps, taken before `found` runs; or, if it has none now, what
  /// `missing` returns, which runs with no build of the slot claimed, so that it may resolve
  /// anew and build in `slot`.
  static func instance(in slot: Slot, orElse missing: () -> Value, found: () -> Void) -> Value

  /// The instance that `slot` keeps for every new consumer, taken before `found` runs; or the
  /// one that `build` makes, once however many ask at once. `build` stores what it keeps
  /// through ``store(_:in:_:)``. A wait for another thread's build that lasts long is reported
  /// for the consumer at `location`.
  static func instance(
    in slot: Slot, of injection: Injection, for location: CodeLocation, build: () -> Value, found: () -> Void
  ) -> Value

  /// Keeps `instance` in `slot` for later consumers, as `record` says; returns how, and what it
  /// replaced, for the caller to release once no state is being changed any more.
  static func store(_ instance: Value, in slot: Slot, _ record: StoreRecord) -> (Keeping, replaced: Any?)

  /// The session generations the instance that `slot` keeps belongs to.
  static func generations(of slot: Slot) -> [SessionGeneration]

  /// Empties `slot`, which a popped layer owned, under its guard; returns what it kept.
  static func empty(_ slot: Slot) -> Any?

  /// Whether `slot` has an instance for new consumers now.
  static func holdsInstance(_ slot: Slot) -> Bool

  // MARK: The chain of builds in progress

  /// Enters `injection`, which builds or delegates for a consumer at `location`, in the global
  /// world if `inGlobalWorld`; stops with the cycle message if it is in progress already.
  ///
  /// Returns what ``leave(_:_:)`` needs, unretained. The chain of builds names `injection`
  /// unretained too: the caller holds it until it leaves it (a delegation may drop the
  /// resolution's last other reference to it).
  static func enter(
    _ injection: Injection, from location: CodeLocation, inGlobalWorld: Bool
  ) -> Unmanaged<AnyObject>?

  /// Leaves `injection`, which ``enter(_:from:inGlobalWorld:)`` entered and returned `entered`
  /// for.
  static func leave(_ injection: Injection, _ entered: Unmanaged<AnyObject>?)

  /// Opens the frame of a build on this door's chain of builds in progress: what the build
  /// resolves is noted there.
  static func beginBuild()

  /// Closes the innermost frame; returns what the build resolved, if it noted anything.
  static func endBuild() -> BuildRecord?

  /// Notes, in the innermost frame of the build in progress around this resolution (on this
  /// door's chain, or the other door's where it encloses it), that the build resolved
  /// `dependency`, an instance that belongs to `generations`.
  static func noteResolved(_ resolved: () -> (BuildDependency, generations: [SessionGeneration]))

  /// Whether resolutions note what they resolve now: a build may be in progress around them.
  static var isRecordingBuild: Bool { get }

  // MARK: Families

  /// Tells `family`, the family of an injection of this kind, `note`: on the main actor for a
  /// main-actor family.
  static func tell(_ family: FamilyIdentity, _ note: FamilyNote)

  // MARK: Events

  /// Whether resolutions are recorded now: a telemetry is installed. Misuses are recorded always.
  static var recordsResolutions: Bool { get }

  /// Records `kind` for `injection` at `location`: to the installed telemetry, or, with none, as
  /// a warning in debug builds if it is a misuse.
  static func record(_ kind: InjectionEvent.Kind, _ injection: Injection, at location: CodeLocation)
}

/// The two kinds of injection.
@usableFromInline
enum InjectionKind: Sendable {
  /// `Injection`: resolved on the main actor.
  case mainActor
  /// `SendableInjection`: resolved from any isolation.
  case sendable

  /// The type's name as messages write it.
  var typeName: String {
    switch self {
    case .mainActor: "Injection"
    case .sendable: "SendableInjection"
    }
  }
}
