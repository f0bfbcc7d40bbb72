/// The sendable door into the engine: what `SendableInjection` does differently from a
/// main-actor injection.
///
/// Locks guard its slots (each in its own header, with a per-slot once),
/// its stacks and its part of each world; the chain of builds in progress is each thread's
/// (``BuildChain``); events reach the main actor's telemetry in order (``SendableTelemetry``).
@usableFromInline
enum SendableDoor<T: Sendable>: Door {
  @usableFromInline typealias Value = T
  @usableFromInline typealias Injection = SendableInjection<T>
  @usableFromInline typealias Factory = Boxed<@Sendable () -> T>
  @usableFromInline typealias Decorator = Boxed<@Sendable (T) -> T>
  @usableFromInline typealias Slot = SendableSlot<T>

  @usableFromInline static var kind: InjectionKind { .sendable }

  @usableFromInline static func makeSlot() -> SendableSlot<T> { .make() }

  static func publication(of injection: SendableInjection<T>) -> Publication<Self> { injection.publication }

  static func withGlobalStack<R>(of injection: SendableInjection<T>, _ body: (inout GlobalStack) -> R) -> R {
    injection.withGlobalStack(body)
  }

  static func globalSnapshot(
    of injection: SendableInjection<T>
  ) -> (layers: [any AnyObject & Sendable], familyDepth: Int)? {
    injection.state.withLock { $0.stack.snapshot }
  }

  static func make(_ factory: Factory) -> T { factory.closure() }

  static func decorate(_ instance: T, with decorator: Decorator) -> T { decorator.closure(instance) }

  static func part(of world: World?) -> any WorldPartGuard { World.sendablePart(of: world) }

  static func withPart<R>(of world: World?, _ body: (inout WorldPart) -> R) -> R {
    World.sendablePart(of: world).withLock(body)
  }

  static func resolved(in world: World, by engine: AnyObject, at changes: UInt64) -> (any EngineSlot)? {
    world.sendableResolved(by: engine, at: changes)
  }

  static func slot(
    for layer: Layer<Self>, in world: World, resolvedBy reader: WorldPart.Reader?, isNew: inout Bool
  ) -> any EngineSlot {
    world.sendableSlot(for: ObjectIdentifier(layer), resolvedBy: reader, isNew: &isNew) {
      WorldPart.Entry(newSlotFor: layer)
    }
  }

  static func testLayers(of injection: SendableInjection<T>, in test: TestOverrides) -> [any AnyObject & Sendable]? {
    test.withSendableStacks { $0.layers(of: injection) }
  }

  static func withStacks<R>(of test: TestOverrides, _ body: (inout TestStacks) -> R) -> R {
    test.withSendableStacks(body)
  }

  static func instance(in slot: Slot, orElse missing: () -> T, found: () -> Void) -> T {
    slot.instance(orElse: missing, found: found)
  }

  static func instance(
    in slot: SendableSlot<T>, of injection: SendableInjection<T>, for location: CodeLocation, build: () -> T,
    found: () -> Void
  ) -> T {
    slot.instance(of: { injection }, for: location, build: build, found: found)
  }

  static func store(_ instance: T, in slot: SendableSlot<T>, _ record: StoreRecord) -> (Keeping, replaced: Any?) {
    slot.store(instance, record)
  }

  static func generations(of slot: SendableSlot<T>) -> [SessionGeneration] { slot.generations }

  static func holdsInstance(_ slot: Slot) -> Bool { slot.holdsInstance }

  static func empty(_ slot: SendableSlot<T>) -> Any? { slot.emptyUnderLock() }

  /// Returns the thread's builds (``ThreadBuilds``), unretained: the thread holds them, and
  /// leaves on the thread it entered on.
  static func enter(
    _ injection: SendableInjection<T>, from location: CodeLocation, inGlobalWorld: Bool
  ) -> Unmanaged<AnyObject>? {
    if inGlobalWorld {
      injection.noteFirstResolution(at: location)
    }
    return Unmanaged.fromOpaque(BuildChain.enter(injection).toOpaque())
  }

  static func leave(_ injection: SendableInjection<T>, _ builds: Unmanaged<AnyObject>?) {
    // Only `enter` makes it, from the thread's `ThreadBuilds`.
    BuildChain.leave(Unmanaged<ThreadBuilds>.fromOpaque(builds.unsafelyUnwrapped.toOpaque()))
  }

  static func beginBuild() {
    // Resolutions inside the build take the general path, which notes them in its frame.
    SendableFastPath.beginBuild()
    CurrentThread.builds.records.append(BuildRecord())
  }

  static func endBuild() -> BuildRecord? {
    SendableFastPath.endBuild()
    let record = CurrentThread.builds.records.removeLast()
    return record.generations.isEmpty && record.dependencies.isEmpty ? nil : record
  }

  static func noteResolved(_ resolved: () -> (BuildDependency, generations: [SessionGeneration])) {
    // `resolved` runs only where a frame notes it: ``isRecordingBuild`` counts the builds of every
    // thread.
    let builds = CurrentThread.builds
    if !builds.records.isEmpty {
      let (dependency, generations) = resolved()
      builds.records[builds.records.count - 1].note(dependency, generations)
    } else if MainActorRelease.isOnMainActor, MainActor.assumeIsolated({ BuildFrames.isRecording }) {
      // A main-actor build around this resolution, on the main actor: the main-actor door's
      // frame notes it. Checked at run time: `assumeIsolated` stops the program rather than run
      // elsewhere.
      let (dependency, generations) = resolved()
      MainActor.assumeIsolated {
        BuildFrames.note(dependency, generations)
      }
    }
  }

  // A build of either kind may be in progress around this resolution only while one is counted,
  // which every build on the general path is.
  static var isRecordingBuild: Bool { SendableFastPath.isBuilding }

  static func tell(_ family: FamilyIdentity, _ note: FamilyNote) { family.tell(note) }

  static var recordsResolutions: Bool { SendableTelemetry.isActive }

  static func record(_ kind: InjectionEvent.Kind, _ injection: SendableInjection<T>, at location: CodeLocation) {
    if injection.publication.family != nil {
      // A family's member is named with its key.
      let name = injection.publication.name
      SendableTelemetry.record(kind, injection: name, publishedAt: injection.location, at: location)
    } else {
      SendableTelemetry.record(kind, of: Self.self, publishedAt: injection.location, at: location)
    }
  }
}
