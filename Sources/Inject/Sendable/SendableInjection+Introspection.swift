extension SendableInjection: CustomDebugStringConvertible {
  /// The injection's type, where it was published, and its override stacks, top first (in a
  /// test world, the test's above the global one), with each layer's location, strategy, and
  /// whether the global world holds an instance it built.
  ///
  /// ```swift
  /// debugPrint(imageClientInjection)
  /// // SendableInjection<ImageClient> published at App/ImageClient.swift:9, strategy .singleton
  /// //   the published layer: instance, .singleton, published at App/ImageClient.swift:9, holds an instance
  /// ```
  public var debugDescription: String {
    engine.debugDescription(of: self)
  }
}

extension SendableInjection: CustomReflectable {
  /// The strategy, where the injection was published, and its layers, top first.
  public var customMirror: Mirror {
    engine.mirror(of: self)
  }
}

extension SendableInstance: CustomDebugStringConvertible {
  /// The injection the property consumes, where it is declared, and what it holds.
  ///
  /// ```swift
  /// debugPrint(thumbnails.$client)
  /// // @SendableInstance at App/Thumbnails.swift:8 of SendableInjection<ImageClient> (App/ImageClient.swift:9): resolved
  /// ```
  public var debugDescription: String {
    let state = storage.instance == nil ? "not resolved yet" : storage.isLocal ? "local value" : "resolved"
    return "@SendableInstance at \(storage.location) of \(storage.injection.label): \(state)"
  }
}
