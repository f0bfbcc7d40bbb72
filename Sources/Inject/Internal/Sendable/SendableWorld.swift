/// The part of a ``World`` that sendable injections resolve in, from any thread: the scoped
/// overrides of sendable injections that apply there, the slots of the sendable layers resolved
/// there, and, in a test world, the test's stacks of sendable overrides.
///
/// Every world has one, made with it; a world keeps of the worlds around it only their
/// overrides and test stacks, as ``World`` does.
final class SendableWorld: Sendable {
  /// The scoped overrides of sendable injections that apply here, one per injection.
  let overrides: [SendableScopedOverride]
  /// Whether this is a test world, where sendable injections resolve their test value.
  let isTest: Bool
  /// The sendable override stacks of the test this world belongs to, if it is a test world.
  let testStacks: SendableTestStacks?
  /// The slot of each sendable layer resolved here, by the layer's identifier.
  private let slots = Locked<[ObjectIdentifier: Entry]>([:])

  private struct Entry: Sendable {
    /// The `SendableLayer<T>`, held so that its identifier names it alone while its slot is
    /// here; ``forget(_:)`` lets it go once it is popped.
    let layer: any AnyObject & Sendable
    /// Its `SendableSlot<T>`.
    let slot: any AnyObject & Sendable
  }

  /// The worlds alive, held weakly, so that a popped layer can leave every world that stored
  /// what it built.
  private static let alive = Locked(Registry())

  private struct Registry: Sendable {
    var worlds: [WeakWorld] = []
    var pruneAt = 64
  }

  private struct WeakWorld: Sendable {
    weak var world: SendableWorld?
  }

  /// A world inside `parent`'s, with `parent`'s overrides or `overrides`, a test world if
  /// `isTest` or `parent` is one.
  init(parent: SendableWorld?, overrides: [SendableScopedOverride]? = nil, isTest: Bool) {
    self.overrides = overrides ?? parent?.overrides ?? []
    self.isTest = isTest || parent?.isTest == true
    self.testStacks = parent?.testStacks ?? (self.isTest ? SendableTestStacks() : nil)
    SendableFastPath.increment()
    Self.alive.withLock { registry in
      registry.worlds.append(WeakWorld(world: self))
      if registry.worlds.count >= registry.pruneAt {
        registry.worlds.removeAll { $0.world == nil }
        registry.pruneAt = max(64, registry.worlds.count * 2)
      }
    }
  }

  deinit {
    SendableFastPath.decrement()
  }

  /// The scoped override of `injection` that applies here, if any.
  func override(of injection: AnyObject) -> SendableScopedOverride? {
    overrides.first { $0.injection === injection }
  }

  /// This world's slot for what `layer` builds.
  func slot<T>(for layer: SendableLayer<T>) -> SendableSlot<T> {
    let slot = slots.withLock { slots in
      if let entry = slots[ObjectIdentifier(layer)] {
        return entry.slot
      }
      let slot = SendableSlot<T>()
      slots[ObjectIdentifier(layer)] = Entry(layer: layer, slot: slot)
      return slot
    }
    // Only this method stores under a layer's identifier, a `SendableSlot<T>` for its layer.
    return unsafeDowncast(slot, to: SendableSlot<T>.self)
  }

  /// Makes every world alive forget the slots of `layers`, popped.
  ///
  /// Nothing resolves from them again. Returns what the worlds held, for the caller to release
  /// once no lock is held.
  static func forget(_ layers: [ObjectIdentifier]) -> [Any] {
    let worlds = alive.withLock { $0.worlds.compactMap(\.world) }
    var forgotten: [Any] = []
    for world in worlds {
      world.slots.withLock { slots in
        for layer in layers {
          if let entry = slots.removeValue(forKey: layer) {
            forgotten.append(entry)
          }
        }
      }
    }
    return forgotten
  }
}

/// One scope's override of one sendable injection, as the worlds inside the scope see it; the
/// sendable counterpart of ``ScopedOverride``.
final class SendableScopedOverride: Sendable {
  /// The overridden `SendableInjection<T>`, held so that its identifier names it alone.
  let injection: any AnyObject & Sendable
  /// The `SendableLayer<T>` it resolves from where the override applies.
  let layer: any AnyObject & Sendable
  /// For a decorator, the enclosing scopes' override of the same injection that it decorates.
  let beneath: SendableScopedOverride?

  init<T>(_ injection: SendableInjection<T>, with layer: SendableLayer<T>, above beneath: SendableScopedOverride?) {
    self.injection = injection
    self.layer = layer
    self.beneath = if case .transform = layer.source { beneath } else { nil }
  }

  /// The layer, a `SendableLayer<T>` of the injection it overrides.
  func layer<T>(as type: T.Type) -> SendableLayer<T> {
    // Only `init` stores it, from the `SendableInjection<T>` it overrides.
    unsafeDowncast(layer, to: SendableLayer<T>.self)
  }
}

/// A test's override stacks of sendable injections: what `override(with:)` pushes inside a test
/// world, from any thread; the sendable counterpart of ``TestOverrides``.
final class SendableTestStacks: Sendable {
  /// What the test's worlds stored while a sendable override of the test was pushed.
  let log = SendableRollbackLog()
  private let stacks = Locked<[ObjectIdentifier: Stack]>([:])

  private struct Stack: Sendable {
    /// The `SendableInjection<T>`, held so that its identifier names it alone.
    let injection: any AnyObject & Sendable
    /// Its `SendableLayer<T>`s, bottom first.
    var layers: [any AnyObject & Sendable]
  }

  /// How many overrides of `injection` the test has pushed.
  func depth(of injection: AnyObject) -> Int {
    stacks.withLock { $0[ObjectIdentifier(injection)]?.layers.count ?? 0 }
  }

  /// The layer of `injection` at `depth` (1 is the first pushed), if there is one.
  func layer<T>(of injection: SendableInjection<T>, at depth: Int) -> SendableLayer<T>? {
    stacks.withLock { stacks in
      guard let layers = stacks[ObjectIdentifier(injection)]?.layers, depth <= layers.count else { return nil }
      // Only `push` stores them, `SendableLayer<T>`s of `injection`.
      return unsafeDowncast(layers[depth - 1], to: SendableLayer<T>.self)
    }
  }

  /// Pushes the layer that `make` makes at the log's next epoch and the new depth; returns it
  /// and its depth.
  func push<T>(
    on injection: SendableInjection<T>, _ make: (_ epoch: UInt64, _ depth: Int) -> SendableLayer<T>
  ) -> (SendableLayer<T>, depth: Int) {
    stacks.withLock { stacks in
      let key = ObjectIdentifier(injection)
      var stack = stacks[key] ?? Stack(injection: injection, layers: [])
      let depth = stack.layers.count + 1
      let layer = make(log.push(), depth)
      stack.layers.append(layer)
      stacks[key] = stack
      return (layer, depth)
    }
  }

  /// Pops `injection`'s layers until `leaving(depth)` are left; returns them, and how many are
  /// left.
  func pop<T>(_ injection: SendableInjection<T>, leaving: (Int) -> Int) -> ([SendableLayer<T>], left: Int) {
    stacks.withLock { stacks in
      let key = ObjectIdentifier(injection)
      guard var stack = stacks.removeValue(forKey: key) else { return ([], 0) }
      let left = leaving(stack.layers.count)
      let popped = stack.layers[left...].map { unsafeDowncast($0, to: SendableLayer<T>.self) }
      stack.layers.removeSubrange(left...)
      if !stack.layers.isEmpty {
        stacks[key] = stack
      }
      return (popped, left)
    }
  }
}
