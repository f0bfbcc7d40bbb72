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
    /// What the storages stored, weakly, by the serial number of the layer that built it.
    var remnants: [UInt64: Remnant] = [:]
    /// When `remnants` grows to this size, the dead ones are dropped: amortized.
    var pruneAt = 64
  }

  /// An instance that a storage stored, held weakly: nothing of the layer that built it, which
  /// its serial number names, is kept.
  ///
  /// A layer popped since is never looked up again: nothing resolves from it. In a test world's
  /// configuration, any rollback of the test since the storage ended forgets the entry, as it
  /// would have emptied the slot (what was built while a popped override was in place is never
  /// handed to a new consumer); outside tests, a global rollback never drops what a scope stored.
  private struct Remnant: Sendable {
    let instance: SessionGeneration.WeakInstance
    /// The test's rollbacks when it was stored.
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
  }

  deinit {
    // Moved out, not copied; see `WorldStorage.deinit`.
    var moved = Scoped()
    scoped.access { swap(&moved, &$0) }
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
    World.current?.configuration
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
  /// storage ends with the last (``WorldStorage/end()``).
  func release(_ storage: WorldStorage) {
    let isLast = link.withLock { link in
      link.worlds -= 1
      guard link.worlds == 0 else { return false }
      link.storage = nil
      return true
    }
    if isLast {
      storage.end()
    }
  }

  // MARK: - What a storage made again finds

  /// Remembers, weakly, that `instance`, an object that belongs to no session generation, was
  /// stored for `layer` in a storage of this configuration: a storage made again after that one
  /// ended finds it while it is alive (``remnant(of:)``).
  ///
  /// Noted as it is stored, so that it is there however and whenever the storage ends.
  func noteStored<D: DoorTypes>(_ instance: AnyObject, by layer: Layer<D>) {
    let pops = testRollbacks
    link.withLock { link in
      link.remnants[layer.serial] = Remnant(instance: SessionGeneration.WeakInstance(object: instance), pops: pops)
      if link.remnants.count >= link.pruneAt {
        link.remnants = link.remnants.filter { $0.value.instance.object != nil }
        link.pruneAt = max(64, link.remnants.count * 2)
      }
    }
  }

  /// The instance that `layer` built in a storage of this configuration, if it is alive.
  func remnant<D: DoorTypes>(of layer: Layer<D>) -> AnyObject? {
    let pops = testRollbacks
    return link.withLock { link in
      guard let remnant = link.remnants[layer.serial], remnant.pops == pops else { return nil }
      return remnant.instance.object
    }
  }

  /// How many rollbacks the test's stacks had, in a test world's configuration; 0 elsewhere.
  private var testRollbacks: UInt64 { testOverrides?.log.pops ?? 0 }
}
