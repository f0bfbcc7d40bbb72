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
    engine.debugDescription(of: self)
  }
}

extension Injection: @MainActor CustomReflectable {
  /// The strategy, where the injection was published, and its layers, top first.
  public var customMirror: Mirror {
    engine.mirror(of: self)
  }
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

extension Injection {
  /// Whether the fast path leaves the instance that the published layer stored in the global
  /// world to the general path (``SlotContents/isGuarded``); for tests.
  package var publishedInstanceIsGuarded: Bool {
    publication.published.slot.access { $0.isGuarded }
  }
}
