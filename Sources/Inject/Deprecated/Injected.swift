/// The 1.x consumer-side property wrapper: configuration at every consumer.
///
/// ```swift
/// @Injected(\.networking) var network              // scope .local, lifespan .temporary
/// @Injected(\.parser, lifespan: .permanent, scope: .shared) var parser
/// network.instance.fetch()
/// ```
///
/// It runs on the 2.0 engine: each key path and strategy maps to one ``Injection`` (see the
/// table in MIGRATION.md). In 2.0, publish an `Injection` and consume it with ``Instance``.
@_documentation(visibility: private)
@available(*, deprecated, message: "Publish an Injection and consume it with @Instance instead; see MIGRATION.md")
@propertyWrapper
public struct Injected<Value> {
  /// The consumer's dependency; read its instance with `.instance`.
  public let wrappedValue: Dependency<Value>

  /// Consumes the dependency at `keyPath` (the 1.x initializer's order).
  ///
  /// - Parameters:
  ///   - keyPath: The `DefaultValues` property that builds the dependency.
  ///   - lifespan: How long an instance lives.
  ///   - scope: Whether consumers share an instance.
  ///   - fileID: Where the property is declared; recorded for diagnostics.
  ///   - line: Where the property is declared; recorded for diagnostics.
  public init(
    _ keyPath: DefaultValues.KeyPath<Value>,
    lifespan: Lifespan = .temporary,
    scope: Scope = .local,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    wrappedValue = Dependency(keyPath, scope: scope, lifespan: lifespan, at: CodeLocation(fileID: fileID, line: line))
  }

  /// Consumes the dependency at `keyPath` (the order the 1.x README wrote).
  ///
  /// - Parameters:
  ///   - keyPath: The `DefaultValues` property that builds the dependency.
  ///   - scope: Whether consumers share an instance.
  ///   - lifespan: How long an instance lives.
  ///   - fileID: Where the property is declared; recorded for diagnostics.
  ///   - line: Where the property is declared; recorded for diagnostics.
  public init(
    _ keyPath: DefaultValues.KeyPath<Value>,
    scope: Scope,
    lifespan: Lifespan,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(keyPath, lifespan: lifespan, scope: scope, fileID: fileID, line: line)
  }
}

/// A 1.x consumer's dependency: its instance, resolved on first access.
@_documentation(visibility: private)
@available(*, deprecated, message: "Read the @Instance property directly instead; see MIGRATION.md")
public final class Dependency<Value> {
  private let keyPath: DefaultValues.KeyPath<Value>
  private let strategy: Strategy
  private let keptForever: Bool
  private let location: CodeLocation
  private var resolved: Value?

  init(_ keyPath: DefaultValues.KeyPath<Value>, scope: Scope, lifespan: Lifespan, at location: CodeLocation) {
    self.keyPath = keyPath
    self.location = location
    switch (scope, lifespan) {
    case (.local, .temporary): (strategy, keptForever) = (.onDemand, false)
    case (.local, .permanent): (strategy, keptForever) = (.onDemand, true)
    case (.shared, .temporary): (strategy, keptForever) = (.shared, false)
    case (.shared, .permanent): (strategy, keptForever) = (.singleton, false)
    }
  }

  /// The instance, resolved on the first access and then kept by this consumer.
  ///
  /// Setting it replaces it for this consumer only.
  public var instance: Value {
    get {
      if let resolved {
        return resolved
      }
      let (keyPath, strategy, keptForever, location) = (keyPath, strategy, keptForever, location)
      let instance = LegacyBridge.onMainActor {
        let instance = LegacyBridge.injection(for: keyPath, strategy: strategy).resolve(from: location)
        if keptForever {
          LegacyBridge.keepForever(instance)
        }
        return instance
      }
      resolved = instance
      return instance
    }
    set {
      resolved = newValue
    }
  }
}

/// A 1.x consumer that can replace its dependencies: `view.injecting(Mock(), for: \.network)`.
@_documentation(visibility: private)
@available(*, deprecated, message: "Assign the @Instance property instead; see MIGRATION.md")
public protocol Injectable {}

@available(*, deprecated, message: "Assign the @Instance property instead; see MIGRATION.md")
extension Injectable {
  /// Replaces the instance of the dependency at `keyPath` for this consumer only.
  ///
  /// - Parameters:
  ///   - value: The instance to use.
  ///   - keyPath: The consumer's `@Injected` property.
  /// - Returns: This consumer.
  public func injecting<Value>(_ value: Value, for keyPath: KeyPath<Self, Dependency<Value>>) -> Self {
    self[keyPath: keyPath].instance = value
    return self
  }
}
