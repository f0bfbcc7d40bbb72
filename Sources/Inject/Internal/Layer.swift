/// One entry of an injection's override stack: where its instances come from, and the storage
/// that its strategy needs.
///
/// The published configuration is the bottom layer; every override pushes another. A layer owns
/// its storage, so popping it releases exactly what it held and nothing beneath.
@MainActor
@usableFromInline
final class Layer<T> {
  enum Source {
    /// Builds a new instance: the published factory or a plain replacement.
    case instance(@MainActor () -> T)
    /// Decorates a new instance made by the layer beneath.
    case transform(@MainActor (T) -> T, beneath: Layer<T>)
    /// Delegates to another injection, with its strategy, storage and overrides.
    case injection(Injection<T>)
  }

  /// What the layer keeps between resolutions.
  @usableFromInline
  struct Storage {
    /// The instance kept strongly: a singleton, or a shared value that cannot be held weakly.
    @usableFromInline
    var kept: T?
    /// The shared instance, held weakly so that it is released after its last holder.
    @usableFromInline
    weak var shared: AnyObject?
    /// The same instance as a `T`, its bits copied without a retain.
    ///
    /// An unowned copy, valid exactly while `shared` is not `nil`. Reading it back costs a copy
    /// of bits instead of the dynamic cast from `AnyObject` to `T` (a protocol-conformance
    /// lookup when `T` is an existential). Allocated on the first weak store, with a scratch
    /// slot after it, and deallocated with the layer.
    @usableFromInline
    var sharedBits: UnsafeMutablePointer<T>?

    @inlinable
    init() {}

    /// The shared instance, if it is still alive.
    @inlinable
    var sharedInstance: T? {
      guard let sharedBits, let object = shared else { return nil }
      // Loading `object` from the weak reference retained the instance, and that retain becomes
      // the returned value's: the bits are taken as they are, without another retain, and
      // `object` is not released. Safe: `sharedBits` holds the bits of the instance that
      // `object` is, and `object` keeps it alive until the returned value owns it.
      _ = Unmanaged.passRetained(consume object)
      // The bits are copied to the scratch slot after them and taken from there, so that the
      // first slot keeps them for the next consumer.
      let scratch = sharedBits + 1
      UnsafeMutableRawPointer(scratch).copyMemory(from: sharedBits, byteCount: MemoryLayout<T>.size)
      return scratch.move()
    }

    /// Holds `instance`, whose dynamic type is a class, weakly.
    mutating func keepWeakly(_ instance: T, as object: AnyObject) {
      let bits = sharedBits ?? .allocate(capacity: 2)
      // Copies the bits without a retain; see `sharedBits`.
      withUnsafeBytes(of: instance) { UnsafeMutableRawBufferPointer(start: bits, count: $0.count).copyMemory(from: $0) }
      sharedBits = bits
      shared = object
    }
  }

  let source: Source
  /// Where the layer was published or pushed.
  let location: CodeLocation
  /// Which layer of the configuration this is, as telemetry names it.
  let origin: InjectionEvent.Layer
  /// The strategy, or `nil` for a layer that delegates to another injection.
  @usableFromInline
  let strategy: Strategy?
  /// The factory of an `.instance` source, which the fast path of resolution calls directly.
  @usableFromInline
  let factory: (@MainActor () -> T)?
  // NB: `nonisolated(unsafe)` only because the `nonisolated` initializer must store this
  // non-Sendable cell. It is safe: the initializer creates the cell and is its only user until
  // it returns, and every other access is from a main-actor-isolated member of this class.
  @usableFromInline
  nonisolated(unsafe) let storage = Cell.make(Storage())

  /// A layer; `strategy` is `nil` for one that delegates to another injection.
  nonisolated init(_ source: Source, strategy: Strategy?, location: CodeLocation, origin: InjectionEvent.Layer) {
    self.source = source
    self.location = location
    self.origin = origin
    self.strategy = strategy
    self.factory = if case .instance(let instance) = source { instance } else { nil }
  }

  deinit {
    // The bits are an unowned copy, so there is nothing to deinitialize; see `Storage`.
    storage.access { $0.sharedBits?.deallocate() }
  }

  /// The instance this layer stores for every new consumer, if it has one now: the fast path
  /// of resolution, which builds and delegates nothing.
  @inlinable
  var stored: T? {
    storage.access { storage in
      if let kept = storage.kept {
        return kept
      }
      return storage.sharedInstance
    }
  }

  /// The instance this layer gives to a new consumer of `injection` declared at `location`,
  /// built only when its strategy needs a new one.
  func resolve(for injection: Injection<T>, from location: CodeLocation) -> T {
    if case .injection(let other) = source {
      return injection.guardingCycles(from: location) { other.resolve(from: location) }
    }
    if let stored {
      Telemetry.record(.returnedFromStorage(origin), injection, at: location)
      return stored
    }
    let instance = injection.guardingCycles(from: location) { make(from: location) }
    Telemetry.record(.built(origin), injection, at: location)
    if strategy != .onDemand {
      let keeping = store(instance)
      if strategy == .shared && keeping == .strongly {
        Telemetry.record(.keptStrongly(origin), injection, at: location)
      }
    }
    return instance
  }

  /// A new instance from this layer's source for a consumer at `location`, never a stored one.
  func make(from location: CodeLocation) -> T {
    switch source {
    case .instance(let instance): instance()
    case .transform(let transform, let beneath): transform(beneath.make(from: location))
    case .injection(let other): other.make(from: location)
    }
  }

  /// Whether an instance built by this layer is alive in its storage.
  var holdsInstance: Bool { stored != nil }

  /// Pops a stack of layers from the top down until `depth` are left.
  ///
  /// A decorating layer holds the layer beneath it. Released bottom first, as `removeAll()`
  /// releases an array, each layer would be deallocated inside the deallocation of the one
  /// above: as many nested frames as layers. From the top, each deallocation ends at once.
  nonisolated static func pop(_ layers: inout [Layer<T>], downTo depth: Int) {
    while layers.count > depth {
      layers.removeLast()
    }
  }

  /// How a layer keeps an instance.
  enum Keeping { case weakly, strongly }

  /// Keeps `instance` for later consumers: weakly if shared and an object, else strongly.
  private func store(_ instance: T) -> Keeping {
    let boxed = instance as Any
    return storage.access { storage in
      if strategy == .shared && type(of: boxed) is AnyClass {
        storage.keepWeakly(instance, as: boxed as AnyObject)
        return .weakly
      }
      storage.kept = instance
      return .strongly
    }
  }
}
