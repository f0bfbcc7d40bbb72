/// The main-actor door into the engine: what `Injection` does differently from a sendable
/// injection.
///
/// The main actor guards its slots, its stacks and its part of each world, the chain
/// of builds in progress is ``Resolution``'s and ``BuildFrames``', and events reach the
/// telemetry synchronously.
///
/// Its conformance to ``Door`` is main-actor-isolated: the compiler lets the engine resolve a
/// main-actor injection only on the main actor.
@usableFromInline
enum MainActorDoor<T>: DoorTypes {
  @usableFromInline typealias Value = T
  @usableFromInline typealias Injection = Inject.Injection<T>
  @usableFromInline typealias Factory = Boxed<@MainActor () -> T>
  @usableFromInline typealias Decorator = Boxed<@MainActor (T) -> T>
  @usableFromInline typealias Slot = InstanceSlot<T>

  @usableFromInline static var kind: InjectionKind { .mainActor }

  @usableFromInline static func makeSlot() -> InstanceSlot<T> { .make() }
}

@MainActor
extension MainActorDoor: @MainActor Door {
  static func publication(of injection: Inject.Injection<T>) -> Publication<Self> { injection.publication }

  static func withGlobalStack<R>(of injection: Inject.Injection<T>, _ body: (inout GlobalStack) -> R) -> R {
    injection.withGlobalStack(body)
  }

  static func globalSnapshot(
    of injection: Inject.Injection<T>
  ) -> (layers: [any AnyObject & Sendable], familyDepth: Int)? {
    injection.globalStack.pointee.snapshot
  }

  static func make(_ factory: Factory) -> T { factory.closure() }

  static func decorate(_ instance: T, with decorator: Decorator) -> T { decorator.closure(instance) }

  static func part(of world: World?) -> any WorldPartGuard { World.mainActorPart(of: world) }

  static func withPart<R>(of world: World?, _ body: (inout WorldPart) -> R) -> R {
    World.mainActorPart(of: world).access(body)
  }

  static func resolved(in world: World, by engine: AnyObject, at changes: UInt64) -> (any EngineSlot)? {
    world.mainActorResolved(by: engine, at: changes)
  }

  static func slot(
    for layer: Layer<Self>, in world: World, resolvedBy reader: WorldPart.Reader?, isNew: inout Bool
  ) -> any EngineSlot {
    world.mainActorSlot(for: ObjectIdentifier(layer), resolvedBy: reader, isNew: &isNew) {
      WorldPart.Entry(newSlotFor: layer)
    }
  }

  static func testLayers(of injection: Inject.Injection<T>, in test: TestOverrides) -> [any AnyObject & Sendable]? {
    test.mainActorLayers(of: injection)
  }

  static func withStacks<R>(of test: TestOverrides, _ body: (inout TestStacks) -> R) -> R {
    test.withMainActorStacks(body)
  }

  static func instance(in slot: Slot, orElse missing: () -> T, found: () -> Void) -> T {
    slot.instance(orElse: missing, found: found)
  }

  static func instance(
    in slot: InstanceSlot<T>, of injection: Inject.Injection<T>, for location: CodeLocation, build: () -> T,
    found: () -> Void
  ) -> T {
    slot.instance(orElse: build, found: found)
  }

  static func store(_ instance: T, in slot: InstanceSlot<T>, _ record: StoreRecord) -> (Keeping, replaced: Any?) {
    slot.store(instance, record)
  }

  static func generations(of slot: InstanceSlot<T>) -> [SessionGeneration] { slot.generations }

  static func holdsInstance(_ slot: Slot) -> Bool { slot.holdsInstance }

  static func empty(_ slot: InstanceSlot<T>) -> Any? { slot.emptyOnMainActor(ifIn: nil) }

  /// Returns the injection `injection` was entered inside, if any.
  static func enter(
    _ injection: Inject.Injection<T>, from location: CodeLocation, inGlobalWorld: Bool
  ) -> Unmanaged<AnyObject>? {
    injection.enterResolution(from: location, inGlobalWorld: inGlobalWorld)
  }

  static func leave(_ injection: Inject.Injection<T>, _ outer: Unmanaged<AnyObject>?) {
    injection.leaveResolution(restoring: outer)
  }

  static func beginBuild() { BuildFrames.begin() }

  static func endBuild() -> BuildRecord? { BuildFrames.end() }

  static func noteResolved(_ resolved: () -> (BuildDependency, generations: [SessionGeneration])) {
    let (dependency, generations) = resolved()
    BuildFrames.note(dependency, generations)
  }

  static var isRecordingBuild: Bool { BuildFrames.isRecording }

  static func tell(_ family: FamilyIdentity, _ note: FamilyNote) { family.tellOnMainActor(note) }

  static var recordsResolutions: Bool { Telemetry.isActive }

  static func record(_ kind: InjectionEvent.Kind, _ injection: Inject.Injection<T>, at location: CodeLocation) {
    if injection.publication.family != nil {
      // A family's member is named with its key.
      Telemetry.record(kind, injection: injection.publication.name, publishedAt: injection.location, at: location)
    } else {
      // Named here, where `T` is known: through the door, the type costs a generic look-up.
      Telemetry.record(kind, instances: T.self, of: .mainActor, publishedAt: injection.location, at: location)
    }
  }
}
