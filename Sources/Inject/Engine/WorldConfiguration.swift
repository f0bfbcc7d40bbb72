import _InjectShims

/// What a world *is*, apart from what it stores.
///
/// The overrides in force there and the checks of its test: what `withDependencies` captures,
/// in swift-dependencies.
///
/// A consumer made while a world is current keeps the world's configuration, never its
/// storage (``WorldStorage``): so an instance a world stores can hold a consumer that has not
/// read yet without keeping the world alive (no reference cycle), and the consumer still
/// resolves with the world's overrides, wherever and whenever it first reads
/// (``isWithin(_:)``).
///
/// Its worlds share one storage while any of them lives (``openStorage()``): the first
/// world's, then, once every world of it has ended, a storage made again for the consumers that
/// read late, shared by them while it lives. What a storage kept that is still alive elsewhere
/// when it ends is remembered here, weakly, so that the next storage finds it
/// (``remnant(of:)``): two late consumers of a `.singleton` get one instance while either holds
/// it.
@usableFromInline
final class WorldConfiguration: Sendable {
  /// The configuration of the enclosing world, if any: a world nested in this one resolves the
  /// consumers that remember this one (``isWithin(_:)``).
  let parent: WorldConfiguration?
  /// Whether this is a test world's, where injections resolve their test value by default.
  let isTest: Bool
  /// Whether any scoped override applies: most worlds of tests have none, and resolution there
  /// then looks for none.
  let hasScopedOverrides: Bool
  /// Whether any scope overrides a whole family.
  let hasFamilyScopes: Bool
  /// Whether this configuration's own scoped override (not its parent's, which the parent holds)
  /// overrides a main-actor injection or family: what it holds is then released on the main
  /// actor.
  private let releasesOnMainActor: Bool
  /// The override stacks of the test, if it is a test world's: shared with the worlds inside
  /// it, where `override(with:)` pushes instead of on the global stack.
  let testOverrides: TestOverrides?
  /// Where the instances built for the test are watched, for a leak report.
  let leakWatch: LeakWatch?
  /// A strict test's check.
  let strictCheck: StrictCheck?
  /// A test's graph check, run in each world of the test as its scope ends.
  let graphCheck: (@MainActor @Sendable () -> Void)?
  /// The scoped overrides, of injections and of families.
  // NB: `nonisolated(unsafe)` only so that `deinit` can move the overrides to the main actor,
  // where a main-actor override's layer (and what it captured) is released. It is safe: it is
  // private, written only by the initializer, before any other thread can reach this object, and
  // by `deinit`, when none can any more; every other access only reads. A cell, so that a read
  // costs no dynamic exclusivity check.
  private nonisolated(unsafe) let scoped = Cell.make(Scoped())
  /// The storage that the worlds of this configuration share, and what ended storages left.
  private let link = Locked(Link())
  /// Whether a consumer or a carried ``InjectionWorld`` remembers this configuration: only then
  /// does an ending storage leave what it kept here. A flag of `_InjectShims`, so that each
  /// consumer made in the world tests it with one relaxed load, and no lock.
  // NB: `nonisolated(unsafe)` only because a pointer is not `Sendable`. It is safe: the word is
  // initialized before any other thread can reach this object, freed in `deinit` when none can,
  // and otherwise read and written only through `_inject_flag_is_set` and `_inject_flag_set`,
  // which are atomic. A storage ends only after every world of it was released through `link`'s
  // lock, which orders a consumer's setting of the flag before the storage's reading of it.
  private nonisolated(unsafe) let rememberedFlag = UnsafeMutablePointer<Int>.allocate(capacity: 1)
  /// The scoped overrides that apply in a world.
  private struct Scoped {
    /// One per injection.
    var injections: [ScopedOverride] = []
    /// One per family.
    var families: [FamilyScope] = []
  }

  /// Where a world of this configuration finds its storage.
  private struct Link: Sendable {
    /// The storage of the worlds of this configuration, while one of them lives.
    var storage: WorldStorage?
    /// How many worlds of this configuration are alive: the storage ends with the last.
    var worlds = 0
    /// Whether a storage was made already: any later one is made again.
    var hasMadeStorage = false
    /// What ended storages kept that was alive elsewhere, by the serial number of the layer that
    /// built it.
    var remnants: [UInt64: Remnant] = [:]
    /// The main-actor parts of storages that ended off the main actor, whose objects are left in
    /// `remnants` on the main actor: at once by the first main-actor resolution that looks, or by
    /// a main-actor task.
    var endedOffMainActor: [WorldPart] = []
    /// When `remnants` is pruned, which forgets the dead ones.
    var pruning = PruneSchedule()
  }

  /// An instance that an ended storage kept, held weakly: nothing of the layer that built it,
  /// which its serial number names, is kept.
  ///
  /// A layer popped since is never looked up again: nothing resolves from it. In a test world's
  /// configuration, any rollback of the test since the storage ended forgets the entry, as it
  /// would have emptied the slot (what was built while a popped override was in place is never
  /// handed to a new consumer); outside tests, a global rollback never drops what a scope stored.
  private struct Remnant: Sendable {
    let instance: SessionGeneration.WeakInstance
    /// The test's rollbacks when the storage ended.
    let pops: UInt64
  }

  /// The configuration of a world inside `parent` (`nil`: the global world), with `parent`'s
  /// overrides, and `scoped` and `familyScope` in place of those they replace; a test world's if
  /// `isTest` or `parent` is one, with the checks given, or `parent`'s.
  init(
    parent: WorldConfiguration?, overriding scoped: ScopedOverride?, overridingFamily familyScope: FamilyScope?,
    isTest: Bool, leakWatch: LeakWatch?, strictCheck: StrictCheck?, graphCheck: (@MainActor @Sendable () -> Void)?
  ) {
    let enclosing = parent?.overrides ?? []
    let overrides = scoped.map { enclosing.replacing(with: $0) } ?? enclosing
    let enclosingFamilies = parent?.scoped.read { $0.families } ?? []
    let families = familyScope.map { new in enclosingFamilies.filter { $0.identity !== new.identity } + [new] }
    self.parent = parent
    self.hasFamilyScopes = !(families ?? enclosingFamilies).isEmpty
    self.hasScopedOverrides = !overrides.isEmpty
    self.isTest = isTest || parent?.isTest == true
    self.leakWatch = leakWatch ?? parent?.leakWatch
    self.strictCheck = strictCheck ?? parent?.strictCheck
    self.testOverrides = parent?.testOverrides ?? (self.isTest ? TestOverrides() : nil)
    self.graphCheck = graphCheck ?? parent?.graphCheck
    self.scoped.access { $0 = Scoped(injections: overrides, families: families ?? enclosingFamilies) }
    releasesOnMainActor = scoped?.isMainActor == true || familyScope?.isMainActor == true
    rememberedFlag.initialize(to: 0)
  }

  deinit {
    rememberedFlag.deallocate()
    // Moved out, not copied; see `WorldStorage.deinit`.
    var moved = Scoped()
    scoped.access { swap(&moved, &$0) }
    // Sendable overrides, none (a test world's), or only those of the parent, which holds them,
    // are released here: a configuration made and ended on another thread leaves no job for the
    // main actor, however busy it is.
    guard releasesOnMainActor else { return }
    MainActorRelease.release(consume moved)
  }

  /// The scoped overrides that apply, of both kinds, one per injection.
  var overrides: [ScopedOverride] { scoped.read { $0.injections } }

  /// The scoped override of `injection` that applies, if any.
  func override(of injection: AnyObject) -> ScopedOverride? {
    hasScopedOverrides ? scoped.read { $0.injections.first(overriding: injection) } : nil
  }

  /// The scoped override of the family `identity` that applies, if any.
  func familyScope(of identity: FamilyIdentity) -> FamilyScope? {
    guard hasFamilyScopes else { return nil }
    return scoped.read { $0.families.first { $0.identity === identity } }
  }

  /// Whether this is `other` or the configuration of a world nested inside one of `other`'s:
  /// where a consumer that remembers `other` resolves, if it is the current task's world; else,
  /// it resolves in a world of `other` made for it, current while it resolves, so that what a
  /// factory resolves resolves there too.
  ///
  /// `other` is compared by address, unretained: the caller keeps it alive.
  @inline(__always)
  func isWithin(_ other: Unmanaged<WorldConfiguration>) -> Bool {
    Unmanaged.passUnretained(self).toOpaque() == other.toOpaque() || parent?.isNested(in: other) == true
  }

  /// Whether this is `other` or nested inside it, for ``isWithin(_:)``.
  private func isNested(in other: Unmanaged<WorldConfiguration>) -> Bool {
    var next: WorldConfiguration? = self
    while let configuration = next {
      if Unmanaged.passUnretained(configuration).toOpaque() == other.toOpaque() {
        return true
      }
      next = configuration.parent
    }
    return false
  }

  // MARK: - Remembered by consumers

  /// The configuration of the current task's world, for a consumer or a carried world made now,
  /// which remembers it; `nil` in the global world.
  static func rememberedByNewConsumer() -> WorldConfiguration? {
    guard let configuration = World.current?.configuration else { return nil }
    if !_inject_flag_is_set(configuration.rememberedFlag) {
      _inject_flag_set(configuration.rememberedFlag)
    }
    return configuration
  }

  /// ``rememberedByNewConsumer()``, retained for the consumer's storage, which releases it.
  @usableFromInline
  static func retainedForNewConsumer() -> Unmanaged<WorldConfiguration>? {
    rememberedByNewConsumer().map(Unmanaged.passRetained)
  }

  // MARK: - Worlds and their storage

  /// The storage for a new world of this configuration: the one its worlds share while one of
  /// them lives, else a new one; the world is counted.
  func openStorage() -> WorldStorage {
    link.withLock { link in
      link.worlds += 1
      if let storage = link.storage {
        return storage
      }
      let storage = WorldStorage(isMadeAgain: link.hasMadeStorage)
      (link.storage, link.hasMadeStorage) = (storage, true)
      return storage
    }
  }

  /// Notes that a world of this configuration, which stored in `storage`, was released: the
  /// storage ends with the last.
  ///
  /// If a consumer or a carried world remembers this configuration, what the storage kept that
  /// is alive elsewhere is left here as it ends, before any later world can open a storage made
  /// again: the sendable part's under the lock; the main-actor part's too on the main actor,
  /// else on the main actor before any main-actor resolution looks (``remnant(of:)``). The
  /// families whose members stored there are told once the part they stored in is released: a
  /// sendable family here, a main-actor family on the main actor.
  func release(_ storage: WorldStorage) {
    let isOnMainActor = MainActorRelease.isOnMainActor
    var families: [(family: FamilyIdentity, slots: Int)] = []
    let ended: WorldPart? = link.withLock { link in
      link.worlds -= 1
      guard link.worlds == 0 else { return nil }
      link.storage = nil
      let mainActorPart = storage.takeMainActorPart()
      // The sendable families, whose members store in the sendable part.
      families = storage.sendablePart.withLock { $0.storingFamilies }
      guard _inject_flag_is_set(rememberedFlag) else { return mainActorPart }
      let pops = testRollbacks
      leave(storage.sendableObjects(), at: pops, in: &link)
      guard let mainActorPart else { return nil }
      guard isOnMainActor else {
        link.endedOffMainActor.append(mainActorPart)
        return nil
      }
      // Checked at run time: `assumeIsolated` stops the program rather than run elsewhere.
      MainActor.assumeIsolated { leave(WorldStorage.objects(inMainActorPart: mainActorPart), at: pops, in: &link) }
      return mainActorPart
    }
    if let mainActorFamilies = ended?.storingFamilies {
      // Consumed: a copy left here could be released after the main actor released its own, and
      // after the families were told that the part's slots were gone.
      MainActorRelease.release(consume ended, afterwards: Self.telling(mainActorFamilies))
    } else if link.withLock({ !$0.endedOffMainActor.isEmpty }) {
      MainActorHop.run { [self] in leaveEndedOffMainActor() }
    }
    guard !families.isEmpty else { return }
    // The families whose members stored here are told once the slots are released (now, not
    // with the storage after this returns), and prune, amortized, the members that only this
    // storage needed.
    withExtendedLifetime(storage.takeSendablePart()) {}
    for (family, slots) in families {
      family.tell(.slotsEnded(slots))
    }
  }

  /// What tells `families`, main-actor families whose members stored in a main-actor part, that
  /// their slots there ended, once the part is released: `nil` if there are none.
  private static func telling(_ families: [(family: FamilyIdentity, slots: Int)]) -> (@MainActor () -> Void)? {
    guard !families.isEmpty else { return nil }
    return {
      for (family, slots) in families {
        family.tellOnMainActor(.slotsEnded(slots))
      }
    }
  }

  // MARK: - What a storage made again finds

  /// Leaves what the main-actor parts of storages that ended off the main actor kept, and
  /// releases them, on the main actor.
  @MainActor
  private func leaveEndedOffMainActor() {
    let pops = testRollbacks
    let parts = link.withLock { link in
      defer { link.endedOffMainActor = [] }
      for part in link.endedOffMainActor {
        leave(WorldStorage.objects(inMainActorPart: part), at: pops, in: &link)
      }
      return link.endedOffMainActor
    }
    let families = parts.flatMap(\.storingFamilies)
    MainActorRelease.release(parts, afterwards: Self.telling(families))
  }

  /// Remembers, weakly, `instances` that an ended storage kept, each by its layer's serial.
  private func leave(_ instances: [(serial: UInt64, instance: AnyObject)], at pops: UInt64, in link: inout Link) {
    for (serial, instance) in instances {
      link.remnants[serial] = Remnant(instance: SessionGeneration.WeakInstance(object: instance), pops: pops)
    }
    if link.pruning.isDue(link.remnants.count) {
      link.remnants = link.remnants.filter { $0.value.instance.object != nil }
      link.pruning.pruned(leaving: link.remnants.count)
    }
  }

  /// The instance that `layer` built in an ended storage of this configuration, if it is alive.
  ///
  /// On the main actor, what storages that ended elsewhere left is taken in first.
  func remnant<D: DoorTypes>(of layer: Layer<D>) -> AnyObject? {
    if MainActorRelease.isOnMainActor, link.withLock({ !$0.endedOffMainActor.isEmpty }) {
      // Checked at run time: `assumeIsolated` stops the program rather than run elsewhere.
      MainActor.assumeIsolated { leaveEndedOffMainActor() }
    }
    let pops = testRollbacks
    return link.withLock { link in
      guard let remnant = link.remnants[layer.serial], remnant.pops == pops else { return nil }
      return remnant.instance.object
    }
  }

  /// How many rollbacks the test's stacks had, in a test world's configuration; 0 elsewhere.
  private var testRollbacks: UInt64 { testOverrides?.log.pops ?? 0 }
}
