extension Injection: @MainActor CustomDebugStringConvertible {
  /// The injection's type, where it was published, and its override stacks, top first (in a
  /// test world, the test's above the global one), with each layer's location, strategy, and
  /// whether the global world holds an instance it built.
  ///
  /// ```swift
  /// debugPrint(service)
  /// // Injection<Service> published at ServicePackage/Services.swift:12, strategy .shared
  /// //   override layer 1: instance, .singleton, pushed at AppTests/ScreenTests.swift:9, holds an instance
  /// //   the published layer: instance, .shared, published at ServicePackage/Services.swift:12
  /// ```
  public var debugDescription: String {
    let layers = layersTopFirst.map { "  " + $0.debugDescription }
    return (["Injection<\(T.self)> published at \(location), strategy .\(strategy)"] + layers).joined(separator: "\n")
  }
}

extension Injection: @MainActor CustomReflectable {
  /// The strategy, where the injection was published, and its layers, top first.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "strategy": strategy,
        "publishedAt": location,
        "layers": layersTopFirst.map(\.debugDescription),
      ],
      displayStyle: .class)
  }
}

extension Injection {
  /// The override stacks that apply here, top first, down to the published layer: the current
  /// test's, in a test world, then the global one.
  private var layersTopFirst: [Layer<T>] {
    let tested = World.current?.testOverrides.map { tested in
      (0..<tested.depth(of: self)).map { tested.layer(of: self, at: $0 + 1) }
    }
    return ([published] + overrides + (tested ?? [])).reversed()
  }
}

extension Layer {
  /// One line: which layer, what it builds from, its strategy, where, and what it holds.
  var debugDescription: String {
    let what =
      switch source {
      case .instance: "instance, \(strategyName)"
      case .transform: "closure, \(strategyName)"
      case .injection(let other): "delegates to \(other.label)"
      }
    let verb = origin == .published ? "published" : "pushed"
    return "\(origin): \(what), \(verb) at \(location)\(holdsInstance ? ", holds an instance" : "")"
  }

  /// `.shared`, `.singleton` or `.onDemand`; building layers always have a strategy.
  private var strategyName: String { strategy.map { ".\($0)" } ?? "" }
}

extension Instance: @MainActor CustomDebugStringConvertible {
  /// The injection the property consumes, where it is declared, and what it holds.
  ///
  /// ```swift
  /// debugPrint(screen.$service)
  /// // @Instance at App/Screen.swift:8 of Injection<Service> (ServicePackage/Services.swift:12): resolved
  /// ```
  @MainActor
  public var debugDescription: String {
    let state = storage.instance == nil ? "not resolved yet" : storage.isLocal ? "local value" : "resolved"
    return "@Instance at \(storage.location) of \(storage.injection.label): \(state)"
  }
}
