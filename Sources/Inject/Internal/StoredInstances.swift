/// The slots that stored an instance, listed once each, so that
/// ``InjectionGraph/capture(roots:followingReferences:)`` can start from every `.singleton` and
/// `.shared` instance a world keeps.
///
/// Resolution lists a slot from the general path's `build`, the first time the slot stores: every
/// first store goes through it, so the inlined fast path pays nothing, and a slot that stores
/// again is not listed again. The global world's slots are listed here; a scope world lists its
/// own (``World/register(_:)``).
///
/// No entry holds its injection, not even weakly: a weak reference would give the injection a
/// side table, and every consumer's retain and release of it would take the runtime's slow path.
/// An entry names the injection by identity and keeps what the graph shows of it. It holds its
/// slot strongly, as the layer or the world that owns the slot does, and leaves with it: when a
/// global layer is popped or released with its injection, ``World/forget(_:)`` removes the
/// layer's entries here and in every world, while the layer is still alive.
@MainActor
enum StoredInstances {
  /// The global world's listed slots, in the order they first stored.
  private static var global: [StoredEntry] = []

  /// Lists a slot of the global world.
  static func register(_ entry: StoredEntry) {
    global.append(entry)
  }

  /// The listed slots of `world` (`nil`: the global world).
  static func entries(in world: World?) -> [StoredEntry] {
    world?.registered ?? global
  }

  /// Removes the entries of `layers`, global layers popped or released with their injection.
  static func forget(_ layers: Set<ObjectIdentifier>) {
    global.removeAll { layers.contains($0.layer) }
  }
}

/// One listed slot: the injection and the layer that stored in it.
@MainActor
struct StoredEntry {
  /// The slot.
  let slot: any StoredSlot
  /// The layer that owns the slot, by identity.
  let layer: ObjectIdentifier
  /// The injection, by identity.
  let injection: ObjectIdentifier
  /// The type of the injection's instances.
  let type: any Any.Type
  /// Where the injection was published.
  let publishedAt: CodeLocation
  /// The strategy of the layer that built the instance; not the injection's, which an override
  /// may have changed.
  let strategy: Strategy
  /// Which layer built the instance.
  let origin: InjectionEvent.Layer
}

/// A slot, whatever its instance's type.
@MainActor
protocol StoredSlot: AnyObject {
  /// The instance the slot holds for new consumers, boxed, and whether it holds it strongly;
  /// `nil` if it holds none now.
  var graphInstance: (value: Any, isKept: Bool)? { get }
}

extension InstanceSlot: StoredSlot {
  var graphInstance: (value: Any, isKept: Bool)? {
    // One load of the weak reference: another thread may release a shared instance meanwhile.
    stored.map { ($0 as Any, access { $0.isKept }) }
  }

  /// Lists this slot, which `layer` of `injection` stores in, in `world` (`nil`: the global
  /// world), unless it is already listed.
  @MainActor
  func registerOnce(_ injection: Injection<T>, _ layer: Layer<T>, strategy: Strategy, in world: World?) {
    guard !access({ $0.isRegistered }) else { return }
    access { $0.isRegistered = true }
    let entry = StoredEntry(
      slot: self, layer: ObjectIdentifier(layer), injection: ObjectIdentifier(injection), type: T.self,
      publishedAt: injection.publishedAt, strategy: strategy, origin: layer.origin)
    if let world {
      world.register(entry)
    } else {
      StoredInstances.register(entry)
    }
  }
}
