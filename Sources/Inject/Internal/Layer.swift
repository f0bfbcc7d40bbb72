/// One entry of an injection's override stack: where its instances come from, and the storage
/// that its strategy needs.
///
/// The published configuration is the bottom layer; every override pushes another. A layer owns
/// its storage, so popping it releases exactly what it held and nothing beneath.
@MainActor
final class Layer<T> {
  enum Source {
    /// Builds a new instance: the published factory or a plain replacement.
    case instance(@MainActor () -> T)
    /// Decorates a new instance made by the layer beneath.
    case transform(@MainActor (T) -> T, beneath: Layer<T>)
    /// Delegates to another injection, with its strategy, storage and overrides.
    case injection(Injection<T>)
  }

  let source: Source
  let strategy: Strategy
  /// Where the layer was published or pushed.
  let location: SourceLocation

  /// The instance kept strongly: a singleton, or a shared value that cannot be held weakly.
  private var kept: T?
  /// The shared instance, held weakly so that it is released after its last holder.
  private weak var shared: AnyObject?

  nonisolated init(_ source: Source, strategy: Strategy, location: SourceLocation) {
    self.source = source
    self.strategy = strategy
    self.location = location
  }

  /// The instance this layer gives to a new consumer of `injection`, built only when its
  /// strategy needs a new one.
  func resolve(for injection: Injection<T>) -> T {
    if case .injection(let other) = source {
      return Resolution.track(injection) { other.resolve() }
    }
    if let kept {
      return kept
    }
    switch strategy {
    case .singleton:
      let instance = build(for: injection)
      kept = instance
      return instance
    case .shared:
      // The object was stored from a value of type `T` (see below), so the cast succeeds.
      if let shared, let instance = shared as? T {
        return instance
      }
      let instance = build(for: injection)
      let boxed = instance as Any
      if type(of: boxed) is AnyClass {
        shared = boxed as AnyObject
      } else {
        kept = instance
      }
      return instance
    case .onDemand:
      return build(for: injection)
    }
  }

  /// A new instance from this layer's source, never a stored one.
  func make() -> T {
    switch source {
    case .instance(let instance): instance()
    case .transform(let transform, let beneath): transform(beneath.make())
    case .injection(let other): other.make()
    }
  }

  /// Whether an instance built by this layer is alive in its storage.
  var holdsInstance: Bool { kept != nil || shared != nil }

  private func build(for injection: Injection<T>) -> T {
    Resolution.track(injection) { make() }
  }
}
