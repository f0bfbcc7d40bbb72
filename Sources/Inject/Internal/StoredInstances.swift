/// The slots that stored an instance, listed once each, so that ``InjectionGraph/capture(roots:followingReferences:)``
/// can start from every `.singleton` and `.shared` instance a world keeps.
///
/// Resolution lists a slot from the general path's `build`, the first time the slot stores: every
/// first store goes through it, so the inlined fast path pays nothing, and a slot that stores
/// again is not listed again. The global world's slots are listed here; a scope world lists its
/// own (``World/register(_:)``).
///
/// Nothing here keeps anything alive: an entry holds its slot and its injection weakly, so a
/// popped layer's slot, a released injection or a released world drops out by itself.
@MainActor
enum StoredInstances {
  /// The global world's listed slots.
  private static var global: [StoredEntry] = []
  /// When `global` grows to this size, the entries of released slots are removed.
  private static var pruneAt = 64

  /// Lists a slot of the global world.
  static func register(_ entry: StoredEntry) {
    global.append(entry)
    if global.count >= pruneAt {
      global.removeAll { $0.slot == nil || $0.injection == nil }
      pruneAt = max(64, global.count * 2)
    }
  }

  /// The listed slots of `world` (`nil`: the global world) whose slot and injection are alive.
  static func entries(in world: World?) -> [StoredEntry] {
    (world?.registered ?? global).filter { $0.slot != nil && $0.injection != nil }
  }
}

/// One listed slot: the injection and the layer that stored in it.
@MainActor
struct StoredEntry {
  /// The injection whose layer owns the slot.
  weak var injection: (any GraphInjection)?
  /// The slot.
  weak var slot: (any StoredSlot)?
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
    holdsInstance ? (instance as Any, access { $0.isKept }) : nil
  }

  /// Lists this slot, which `layer` of `injection` stores in, in `world` (`nil`: the global
  /// world), unless it is already listed.
  @MainActor
  func registerOnce(_ injection: Injection<T>, _ layer: Layer<T>, strategy: Strategy, in world: World?) {
    guard !access({ $0.isRegistered }) else { return }
    access { $0.isRegistered = true }
    let entry = StoredEntry(injection: injection, slot: self, strategy: strategy, origin: layer.origin)
    if let world {
      world.register(entry)
    } else {
      StoredInstances.register(entry)
    }
  }
}
