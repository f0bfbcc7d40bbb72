/// A test's override stacks: what `override(with:)` pushes inside a test world, one stack per
/// injection, for the test world and every world and task inside it; of both kinds, each kind's
/// stacks under its own guard (``Door/withStacks(of:_:)``).
///
/// A test world opened outside any other creates them; the worlds opened inside it share them.
/// Consumers in those worlds resolve a scope's own override first, then the top of the test's
/// stack, then the global stack: so 1.x-style set-up and tear-down (`override(with:)`, then
/// `rollbackOverride()`) stays in the test, and tests that run in parallel never see each
/// other's pushes. What is left pushed goes when the last world of the test is released.
///
/// Rollback is exact here as it is globally: ``log`` lists what the test's worlds stored while
/// an override was pushed, and a rollback drops what they stored since the push. Every push and
/// pop is counted (``StackChanges``), under its stack's guard, once made.
final class TestOverrides: Sendable {
  /// What the test's worlds stored while an override of the test was pushed.
  let log = RollbackLog()

  /// The main-actor injections' stacks.
  // NB: `nonisolated(unsafe)` only so that this `Sendable` object can hold the stacks, which the
  // main actor guards. It is safe: it is private, read and written only by
  // `withMainActorStacks(_:)`, which is main-actor-isolated, and by `deinit`, which runs when
  // nothing else can reach this object.
  private nonisolated(unsafe) let mainActorStacks = Cell.make(TestStacks())
  /// The sendable injections' stacks.
  private let sendableStacks = Locked(TestStacks())
  /// What the test pushed to override whole families, of both kinds, by family: each family's
  /// `FamilyOverride<D>`s, bottom first, beneath its members' own stacks.
  private let families = Locked<[ObjectIdentifier: FamilyStack]>([:])

  private struct FamilyStack: Sendable {
    /// The family, held so that its identifier stays unique while it has a stack.
    let identity: FamilyIdentity
    /// Whether it is a main-actor family: its overrides are released on the main actor.
    let isMainActor: Bool
    var overrides: [any AnyObject & Sendable]
  }

  /// Runs `body` with the main-actor injections' stacks.
  @MainActor
  func withMainActorStacks<R>(_ body: (inout TestStacks) -> R) -> R {
    mainActorStacks.access(body)
  }

  /// The main-actor `injection`'s stack, if the test has pushed any override of it.
  @MainActor
  func mainActorLayers(of injection: AnyObject) -> [any AnyObject & Sendable]? {
    mainActorStacks.access { $0.layers(of: injection) }
  }

  /// Runs `body` with the sendable injections' stacks, under their lock.
  func withSendableStacks<R>(_ body: (inout TestStacks) -> R) -> R {
    sendableStacks.withLock(body)
  }

  // MARK: Families

  /// The layers that the test's overrides of the family `link` names give its member, bottom
  /// first, or `nil` if the test pushed none.
  func familyLayers<D: DoorTypes>(of link: FamilyLink, _: D.Type) -> [any AnyObject & Sendable]? {
    let overrides = families.withLock { $0[ObjectIdentifier(link.identity)]?.overrides }
    // Only `pushFamilyOverride` stores them, `FamilyOverride<D>`s of the family.
    return overrides.map { $0.map { FamilyOverride<D>.unerased($0).layer(for: link) } }
  }

  /// Pushes `override` on the stack of `family`, a main-actor family if `isMainActor`; returns
  /// the new depth.
  func pushFamilyOverride(_ override: any AnyObject & Sendable, of family: FamilyIdentity, isMainActor: Bool) -> Int {
    families.withLock { families in
      defer { StackChanges.count() }
      families[
        ObjectIdentifier(family), default: FamilyStack(identity: family, isMainActor: isMainActor, overrides: [])
      ].overrides.append(override)
      return families[ObjectIdentifier(family)]?.overrides.count ?? 0
    }
  }

  /// Pops the family's stack until `leaving(count)` are left; returns the popped overrides,
  /// bottom first, and how many are left.
  func popFamilyOverrides(
    of family: FamilyIdentity, leaving: (Int) -> Int
  ) -> (popped: [any AnyObject & Sendable], left: Int) {
    families.withLock { families in
      defer { StackChanges.count() }
      let key = ObjectIdentifier(family)
      guard var stack = families.removeValue(forKey: key) else { return ([], 0) }
      let (popped, left) = stack.overrides.pop(leaving: leaving)
      if !stack.overrides.isEmpty {
        families[key] = stack
      }
      return (popped, left)
    }
  }

  /// How many overrides of the family the test pushed.
  func familyDepth(of family: FamilyIdentity) -> Int {
    families.withLock { $0[ObjectIdentifier(family)]?.overrides.count ?? 0 }
  }

  deinit {
    // Moved out, not copied, so that the layers (and what their values and closures captured)
    // are released on the main actor, whichever task lets the test's last world go.
    var moved = TestStacks()
    mainActorStacks.access { swap(&moved, &$0) }
    let familyOverrides = families.withLock { families in
      defer { families = [:] }
      return families
    }
    // A test that overrode no main-actor injection or family leaves nothing to release there: no
    // job for the main actor.
    guard !moved.isEmpty || familyOverrides.values.contains(where: \.isMainActor) else { return }
    // Both consumed: a copy left here would be released when `deinit` returns, which may be
    // after the main actor released the handoff's, and so off the main actor.
    MainActorRelease.release((consume moved, consume familyOverrides))
  }
}

/// One kind's override stacks of one test: each injection's layers, bottom first.
struct TestStacks: Sendable {
  private var stacks: [ObjectIdentifier: Stack] = [:]

  /// Whether no injection has a stack here.
  var isEmpty: Bool { stacks.isEmpty }

  private struct Stack: Sendable {
    /// The injection, held so that its identifier stays unique while it has a stack.
    let injection: any AnyObject & Sendable
    /// Its `Layer<D>`s, bottom first.
    var layers: [any AnyObject & Sendable]
  }

  /// The layers of `injection`, bottom first (`Layer<D>`s, erased), or `nil` if it has none:
  /// an empty stack is dropped.
  func layers(of injection: AnyObject) -> [any AnyObject & Sendable]? {
    stacks.isEmpty ? nil : stacks[ObjectIdentifier(injection)]?.layers
  }

  /// How many overrides of `injection` the test has pushed.
  func depth(of injection: AnyObject) -> Int {
    stacks.isEmpty ? 0 : stacks[ObjectIdentifier(injection)]?.layers.count ?? 0
  }

  /// Pushes the layer that `make` makes at the new depth on `injection`'s stack; returns it, and
  /// the depth.
  mutating func push<D: DoorTypes>(
    on injection: D.Injection, _ make: (_ depth: Int) -> Layer<D>
  ) -> (Layer<D>, depth: Int) {
    defer { StackChanges.count() }
    let key = ObjectIdentifier(injection)
    // Taken out of the table, as `pop` does, so that the append below finds the layers uniquely
    // referenced: copied while the table held them too, a push cost the depth of the stack.
    var stack = stacks.removeValue(forKey: key) ?? Stack(injection: injection, layers: [])
    let layer = make(stack.layers.count + 1)
    stack.layers.append(layer)
    stacks[key] = stack
    return (layer, stack.layers.count)
  }

  /// Pops `injection`'s layers until `leaving(count)` are left; returns them, bottom first, and
  /// how many are left.
  mutating func pop(
    _ injection: AnyObject, leaving: (Int) -> Int
  ) -> (popped: [any AnyObject & Sendable], left: Int) {
    defer { StackChanges.count() }
    let key = ObjectIdentifier(injection)
    guard var stack = stacks.removeValue(forKey: key) else { return ([], 0) }
    let (popped, left) = stack.layers.pop(leaving: leaving)
    if !stack.layers.isEmpty {
      stacks[key] = stack
    }
    return (popped, left)
  }
}
