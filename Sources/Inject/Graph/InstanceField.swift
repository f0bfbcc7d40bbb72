/// A consumer property's type, `Instance<T>` or `SendableInstance<T>`, whatever `T`: reads a
/// property of its type in place, so that the graph's walk reads consumer properties and nothing
/// else of a user's object.
///
/// A main-actor protocol, and the walk runs on the main actor: a cast to a protocol through an
/// isolated conformance behaves differently off the main actor on older Apple runtimes
/// (SE-0470), and these conformances are not isolated.
@MainActor
protocol InstanceField {
  /// What the property at `address`, of this type, consumes and holds.
  static func read(at address: UnsafeRawPointer) -> InstanceFieldValue
}

/// What one consumer property consumes and holds.
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

  /// What `storage` consumes, and `instance`, what it holds.
  init<Injection: GraphInjection, Value>(_ storage: InstanceStorage<Injection, Value>, holding instance: Value?) {
    // No closure (`map`): a main-actor closure checks its executor at each call.
    var value: Any?
    if let instance {
      value = unwrappingOptionals(instance, of: Value.self)
    }
    self.injection = storage.injection
    self.location = storage.location
    self.storage = ObjectIdentifier(storage)
    self.value = value
  }
}

extension Instance: InstanceField {
  static func read(at address: UnsafeRawPointer) -> InstanceFieldValue {
    // The caller found a field of type `Instance<T>` at `address`, in a value it keeps alive, on
    // the main actor: the only isolation that reads or writes an `@Instance`'s storage, wherever
    // it is declared.
    let storage = address.assumingMemoryBound(to: Instance<T>.self).pointee.storage
    return InstanceFieldValue(storage, holding: storage.instance)
  }
}

extension SendableInstance: InstanceField {
  static func read(at address: UnsafeRawPointer) -> InstanceFieldValue {
    // The caller found a field of type `SendableInstance<T>` at `address`, in a value it keeps
    // alive, on the main actor. The storage's address and its header's injection and location
    // are written once, before the object that declares the property could be shared (no consumer
    // writes `_property` again); its instance belongs to that object's isolation (an actor's,
    // most often), which may be writing it: the walk reads the instance the consumer published
    // instead, which any thread may (see `InstanceStorage+Publication.swift`).
    let storage = address.assumingMemoryBound(to: SendableInstance<T>.self).pointee.storage
    return InstanceFieldValue(storage, holding: storage.publishedInstance())
  }
}

/// What the graph needs to know of an injection, whatever its kind and type.
@MainActor
protocol GraphInjection: AnyObject {
  /// What it was published with.
  nonisolated var published: any PublishedInjection { get }
  /// The strategy and the layer that a new consumer in `world` (`nil`: the global world) would
  /// resolve from now; the strategy is the published one if that layer delegates.
  func configuration(in world: World?) -> (strategy: Strategy, origin: InjectionEvent.Layer)
}

extension Injection: GraphInjection {
  nonisolated var published: any PublishedInjection { publication }

  func configuration(in world: World?) -> (strategy: Strategy, origin: InjectionEvent.Layer) {
    engine.configuration(of: self, in: world)
  }
}

extension SendableInjection: GraphInjection {
  var published: any PublishedInjection { publication }

  func configuration(in world: World?) -> (strategy: Strategy, origin: InjectionEvent.Layer) {
    engine.configuration(of: self, in: world)
  }
}

extension Engine {
  /// The strategy and the layer that a new consumer of `injection` in `world` would resolve
  /// from now; the strategy is the published one if that layer delegates.
  func configuration(
    of injection: D.Injection, in world: World?
  ) -> (strategy: Strategy, origin: InjectionEvent.Layer) {
    let configuration = Configuration<D>(injection, in: world)
    let layer = configuration.layer(at: configuration.top)
    return (layer.strategy ?? configuration.publication.strategy, layer.origin)
  }
}
