/// An `Instance<T>` type, whatever `T`: reads a property of its type in place, so that the
/// graph's walk reads `@Instance` properties and nothing else of a user's object.
///
/// A main-actor protocol, and the walk runs on the main actor: a cast to a protocol through an
/// isolated conformance behaves differently off the main actor on older Apple runtimes
/// (SE-0470), and this conformance is not isolated.
@MainActor
protocol InstanceField {
  /// What the property at `address`, an `Instance<T>`, consumes and holds.
  static func read(at address: UnsafeRawPointer) -> InstanceFieldValue
}

/// What one `@Instance` property consumes and holds.
@MainActor
struct InstanceFieldValue {
  /// The injection it consumes.
  let injection: any GraphInjection
  /// Where it is declared.
  let location: CodeLocation
  /// Its storage, which copies of the wrapper share: the identity of a value it holds.
  let storage: ObjectIdentifier
  /// Its instance, resolved or assigned, boxed, without the optionals of an `Instance<T?>`;
  /// `nil` if it holds none.
  let value: Any?
}

extension Instance: InstanceField {
  static func read(at address: UnsafeRawPointer) -> InstanceFieldValue {
    // The caller found a field of type `Instance<T>` at `address`, in a value it keeps alive.
    let storage = address.assumingMemoryBound(to: Instance<T>.self).pointee.storage
    // No closure (`map`): a main-actor closure checks its executor at each call.
    var value: Any?
    if let instance = storage.instance {
      value = unwrappingOptionals(instance, of: T.self)
    }
    return InstanceFieldValue(
      injection: storage.injection, location: storage.location, storage: ObjectIdentifier(storage), value: value)
  }
}

/// What the graph needs to know of an injection, whatever its type.
@MainActor
protocol GraphInjection: InjectionIdentity {
  /// The type of its instances as Swift prints it, such as `UserRepository` for
  /// `any UserRepository`: what the pictures show.
  var typeName: String { get }
  /// Where it was published.
  var publishedAt: CodeLocation { get }
  /// The strategy and the layer that a new consumer in `world` (`nil`: the global world) would
  /// resolve from now; the strategy is the published one if that layer delegates.
  func configuration(in world: World?) -> (strategy: Strategy, origin: InjectionEvent.Layer)
}

extension Injection: GraphInjection {
  var typeName: String { Inject.typeName(T.self) }
  var publishedAt: CodeLocation { location }

  func configuration(in world: World?) -> (strategy: Strategy, origin: InjectionEvent.Layer) {
    let layer = layer(at: top(in: world), in: world)
    return (layer.strategy ?? strategy, layer.origin)
  }
}
