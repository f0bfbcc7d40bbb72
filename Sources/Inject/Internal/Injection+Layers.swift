extension Injection {
  /// Tells the telemetry that a consumer at `location` assigned its own instance.
  @usableFromInline
  func recordLocalOverride(at location: CodeLocation) {
    Telemetry.record(.localOverrideSet, self, at: location)
  }

  /// A layer built by `source`, with `strategy` or the published one.
  func layer(
    _ source: Layer<T>.Source, _ strategy: Strategy?, _ location: CodeLocation, _ origin: InjectionEvent.Layer
  ) -> Layer<T> {
    Layer(source, strategy: strategy ?? self.strategy, location: location, origin: origin)
  }

  /// A layer that delegates to `other`, after checking that it closes no loop.
  func layer(
    delegatingTo other: Injection<T>, _ location: CodeLocation, _ origin: InjectionEvent.Layer
  ) -> Layer<T> {
    if let loop = loop(through: other) {
      fatalError(
        "Cannot override \(label) with \(other.label): it would resolve from itself "
          + "(\(loop.map(\.label).joined(separator: " → "))). To fix this, override with a "
          + "different injection or with an instance.")
    }
    return Layer(.injection(other), strategy: nil, location: location, origin: origin)
  }

  /// The loop from `self` back to `self` that delegating to `other` would form, if any.
  ///
  /// Walks iteratively, so long chains cannot overflow the stack.
  private func loop(through other: Injection<T>) -> [Injection<T>]? {
    var chain: [Injection<T>] = [self]
    var next = other
    while next !== self {
      guard !chain.contains(where: { $0 === next }), let delegate = next.delegate else { return nil }
      chain.append(next)
      next = delegate
    }
    return chain + [self]
  }

  /// The injection that this one's current configuration resolves through, if any.
  private var delegate: Injection<T>? {
    var layer = effectiveTop
    while true {
      switch layer.source {
      case .instance: return nil
      case .transform(_, let beneath): layer = beneath
      case .injection(let other): return other
      }
    }
  }
}
