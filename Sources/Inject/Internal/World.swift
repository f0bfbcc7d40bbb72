/// A scope's world: the instances that every injection resolved inside a scope keeps there,
/// never in the global layers, and the scoped overrides that apply there.
///
/// `withOverride`, `withIsolatedInjections` and the testing traits each open a new world, the
/// current task's innermost: a task-local value, so child tasks and unstructured tasks inherit
/// it for their whole life, detached tasks do not, and other tasks never see it. A world starts
/// empty and reads the global configuration live; the overrides of the enclosing worlds still
/// apply inside it.
///
/// A world keeps of the worlds around it only what resolution inside it needs: their overrides
/// and test settings, never the worlds or their instances. So a world is released when its
/// scope has ended and no task that inherited *it* is alive, whatever worlds nested in it live
/// on, on the main actor whichever task lets it go.
@MainActor
@usableFromInline
final class World {
  /// The current task's innermost world, or `nil` for the global one.
  @usableFromInline
  nonisolated static var current: World? { Current.world }

  /// The worlds alive, by serial number, held weakly: so that a global layer that is popped
  /// can leave every world that stored what it built.
  private static var alive: [Int: WeakWorld] = [:] {
    didSet { Resolution.update() }
  }

  /// The serial number of the last world created, on any thread.
  private nonisolated static let lastSerial = Locked(0)

  /// Whether any world is alive.
  ///
  /// While none is, resolution takes the fast path without reading the current task's world.
  static var isAnyAlive: Bool { !alive.isEmpty }

  /// This world's key in `alive`: a serial number rather than an address, which a world
  /// allocated after this one's release could reuse before the main actor forgets this one.
  private let serial: Int
  /// Whether this is a test world, where injections resolve their test value by default.
  let isTest: Bool
  /// Where the instances built in this world are watched, for a leak report; shared with the
  /// worlds inside it.
  let leakWatch: LeakWatch?
  /// A strict test's check, shared with the worlds inside it: told when an injection with
  /// neither a test value nor an override resolves in them.
  let strictCheck: StrictCheck?
  /// The override stacks of the test this world belongs to, if it is a test world: shared with
  /// the worlds inside it, where `override(with:)` pushes instead of on the global stack.
  let testOverrides: TestOverrides?
  /// A test's graph check, shared with the worlds inside it: run in each of them as its scope
  /// ends, while it still holds what it built, so that the worlds opened inside the test (an
  /// `.overriding` trait's, a `withOverride` in the test) are checked too.
  let graphCheck: (@MainActor @Sendable () -> Void)?
  /// Where sendable injections resolve in this world, from any thread.
  nonisolated let sendable: SendableWorld
  /// The overrides that apply here, and the slots of the layers resolved here.
  // NB: `nonisolated(unsafe)` only so that `deinit`, which is nonisolated, can move them out to
  // the main actor. It is safe: every other access is from a main-actor-isolated member, and
  // `deinit` runs when nothing else can reach this world. A cell, so that resolution reads it
  // with no dynamic exclusivity check.
  private nonisolated(unsafe) let contents = Cell.make(Contents())

  private struct Contents {
    /// The scoped overrides that apply in this world, one per injection.
    var overrides: [ScopedOverride] = []
    /// The `InstanceSlot<T>` of each `Layer<T>` resolved here, by the layer's identifier.
    ///
    /// The layers are not held: a scoped layer is held by `overrides` (its scope's world or an
    /// enclosing one's), and a global one, once popped or released with its injection, is
    /// forgotten by every world (``forget(_:)``) while it is still alive, so an identifier is
    /// never reused for another layer while its slot is here.
    var slots: [ObjectIdentifier: AnyObject] = [:]
    /// The slots that stored here, for the graph, in the order they first stored; each leaves
    /// with its slot (``forget(_:)``).
    var registered: [StoredEntry] = []
    /// The generations of the sessions resolved here.
    var sessions = SessionTable()
  }

  /// A world inside the current task's world, overriding `injection` with `layer`.
  convenience init<T>(overriding injection: Injection<T>, with layer: Layer<T>) {
    let parent = World.current
    let enclosing = parent?.overrides ?? []
    let scoped = ScopedOverride(injection, with: layer, above: enclosing.first(overriding: injection))
    self.init(parent: parent, overrides: enclosing.replacing(with: scoped))
    strictCheck?.noteGiven(layer, of: injection)
  }

  /// A world inside `parent` (`nil`: the global world) with the overrides of `parent`, or
  /// `overrides` if given.
  ///
  /// A world inside a test world is a test world too, and inherits its checks; it does not keep
  /// `parent`.
  init(
    parent: World?, overrides: [ScopedOverride]? = nil, isTest: Bool = false, leakWatch: LeakWatch? = nil,
    strictCheck: StrictCheck? = nil, graphCheck: (@MainActor @Sendable () -> Void)? = nil
  ) {
    self.serial = Self.lastSerial.withLock {
      $0 += 1
      return $0
    }
    self.isTest = isTest || parent?.isTest == true
    self.leakWatch = leakWatch ?? parent?.leakWatch
    self.strictCheck = strictCheck ?? parent?.strictCheck
    self.testOverrides = parent?.testOverrides ?? (self.isTest ? TestOverrides() : nil)
    self.graphCheck = graphCheck ?? parent?.graphCheck
    self.sendable = SendableWorld(parent: parent?.sendable, isTest: self.isTest)
    if let overrides = overrides ?? parent?.overrides {
      contents.access { $0.overrides = overrides }
    }
    Self.alive[serial] = WeakWorld(world: self)
  }

  /// A world inside `parent` (`nil`: the global world), with `parent`'s overrides, and the
  /// sendable overrides `sendableOverrides`: a sendable injection's scope, opened on any thread.
  ///
  /// The parts of the world that only the main actor uses (the main-actor overrides it inherits,
  /// and its place among the worlds alive, which sends resolution on the main actor to the
  /// general path) are set on the main actor: now if the caller runs there, else in a main-actor
  /// task enqueued before anything the scope's code can enqueue. Main-actor code runs in this
  /// world only in a task that inherits it, which hops to the main actor after that task was
  /// enqueued; the main actor runs its jobs in the order they were enqueued.
  nonisolated init(sendableScopeIn parent: World?, sendableOverrides: [SendableScopedOverride]) {
    self.serial = Self.lastSerial.withLock {
      $0 += 1
      return $0
    }
    self.isTest = parent?.isTest == true
    self.leakWatch = parent?.leakWatch
    self.strictCheck = parent?.strictCheck
    self.testOverrides = parent?.testOverrides
    self.graphCheck = parent?.graphCheck
    self.sendable = SendableWorld(parent: parent?.sendable, overrides: sendableOverrides, isTest: false)
    let adopt = Adoption(world: self, parent: parent)
    MainActorHop.run { adopt.run() }
  }

  /// What a world opened off the main actor still needs from it.
  private struct Adoption: Sendable {
    let world: World
    let parent: World?

    @MainActor func run() {
      if let overrides = parent?.overrides {
        world.contents.access { $0.overrides = overrides }
      }
      World.alive[world.serial] = WeakWorld(world: world)
    }
  }

  /// The scoped overrides that apply in this world.
  private var overrides: [ScopedOverride] { contents.access { $0.overrides } }

  /// Runs `operation` in this world.
  func run<R>(_ operation: () throws -> R) rethrows -> R {
    try Current.$world.withValue(self) {
      defer { graphCheck?() }
      return try operation()
    }
  }

  /// Runs `operation` in this world, on the caller's thread: for sendable injections' scopes.
  ///
  /// The graph check, if any, runs on the main actor: at once if the caller runs there, else
  /// in a main-actor task that keeps the world until it has run.
  nonisolated func runAnywhere<R>(_ operation: () throws -> R) rethrows -> R {
    try Current.$world.withValue(self) {
      defer { checkGraphAnywhere() }
      return try operation()
    }
  }

  /// Runs the asynchronous `operation` in this world, in `isolation`: for sendable injections'
  /// scopes.
  func runAnywhere<R>(
    isolation: isolated (any Actor)?, _ operation: () async throws -> R
  ) async rethrows -> R {
    try await Current.$world.withValue(
      self,
      operation: {
        defer { checkGraphAnywhere() }
        return try await operation()
      }, isolation: isolation)
  }

  /// Runs the graph check of this world on the main actor.
  private nonisolated func checkGraphAnywhere() {
    guard let graphCheck else { return }
    MainActorHop.run { [self] in
      withExtendedLifetime(self) { graphCheck() }
    }
  }

  /// Runs the asynchronous `operation` in this world.
  func run<R>(_ operation: () async throws -> R) async rethrows -> R {
    try await Current.$world.withValue(self) {
      defer { graphCheck?() }
      return try await operation()
    }
  }

  /// The scoped override of `injection` that applies in this world, if any.
  func override(of injection: AnyObject) -> ScopedOverride? {
    contents.access { $0.overrides.first(overriding: injection) }
  }

  /// This world's slot for what `layer` builds.
  func slot<T>(for layer: Layer<T>) -> InstanceSlot<T> {
    let key = ObjectIdentifier(layer)
    if let slot = contents.access({ $0.slots[key] }) {
      // Only this method stores under `key`, an `InstanceSlot<T>` for its `Layer<T>`.
      return unsafeDowncast(slot, to: InstanceSlot<T>.self)
    }
    let slot = InstanceSlot<T>.make()
    contents.access { $0.slots[key] = slot }
    return slot
  }

  /// Lists a slot of this world that stored, for the graph.
  func register(_ entry: StoredEntry) {
    contents.access { $0.registered.append(entry) }
  }

  /// The slots of this world that stored, listed by ``register(_:)``.
  var registered: [StoredEntry] { contents.access { $0.registered } }

  /// Runs `body` with this world's session generations, which it may change.
  func withSessions<R>(_ body: (inout SessionTable) -> R) -> R {
    contents.access { body(&$0.sessions) }
  }

  /// How many slots this world keeps.
  var slotCount: Int { contents.access { $0.slots.count } }

  /// Makes every world alive forget the slots of `layers`: global layers popped, or released
  /// with their injection, that nothing can resolve from again.
  ///
  /// Call it while the layers are alive, so that no other layer has their identifiers. Returns
  /// the slots, for the caller to release once no state is being changed any more (their
  /// instances' `deinit` may resolve or push).
  static func forget(_ layers: [ObjectIdentifier]) -> [Any] {
    var forgotten: [AnyObject] = []
    let identifiers = Set(layers)
    StoredInstances.forget(identifiers)
    for world in alive.values.compactMap(\.world) {
      world.contents.access { contents in
        for layer in layers {
          if let slot = contents.slots.removeValue(forKey: layer) {
            forgotten.append(slot)
          }
        }
        contents.registered.removeAll { identifiers.contains($0.layer) }
      }
    }
    // A session's instance goes with its slot: watched for the survivor report, as a rollback's.
    let sessionInstances = forgotten.compactMap { slot -> Any? in
      guard let slot = slot as? any EmptiableSlot, slot.ownGeneration != nil else { return nil }
      return SessionGeneration.empty(slot)
    }
    return forgotten + sessionInstances
  }

  /// Watches `instance`, built in this world for a consumer at `location`, if it is an object
  /// and the world watches for leaks.
  func noteBuilt<T>(_ instance: T, by injection: Injection<T>, for location: CodeLocation) {
    guard let leakWatch else { return }
    let boxed = instance as Any
    guard type(of: boxed) is AnyClass else { return }
    leakWatch.watch(boxed as AnyObject, builtBy: injection.label, for: location)
  }

  /// Tells a strict test, once per injection in the test and the scopes inside it, that
  /// `injection` built its live instance here for a consumer at `location`.
  func noteUntested<T>(_ injection: Injection<T>, at location: CodeLocation) {
    guard let strictCheck, strictCheck.reported.insert(ObjectIdentifier(injection)).inserted else { return }
    strictCheck.report(UntestedResolution(injection: injection.label, location: location))
  }

  deinit {
    // Moved out, not copied: were they copied, this object would drop its own references after
    // `deinit` returns, which may be after the main actor dropped the handoff's, and so release
    // the overrides (their values) or the slots off the main actor. The instances stored in the
    // slots and the overridden injections take care of themselves: a slot and an injection
    // each hand what they hold to the main actor.
    var moved = Contents()
    contents.access { swap(&moved, &$0) }
    MainActorRelease.release(consume moved) { [serial] in
      World.alive[serial] = nil
    }
  }
}

/// How many slots the current task's world keeps, or `nil` in the global world: for tests that
/// a world's memory stays flat.
@MainActor
package func slotCountInCurrentWorld() -> Int? {
  World.current?.slotCount
}

/// A world, held weakly.
private struct WeakWorld {
  weak var world: World?
}

/// The task-local that names the current world.
private enum Current {
  @TaskLocal static var world: World?
}
