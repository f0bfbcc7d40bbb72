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
///
/// Like 1.x's, the wrapper is isolated to the main actor, and so is every property it wraps. In
/// the Swift 5 language mode a class or struct that declares `@Injected` is therefore inferred to
/// be main-actor-isolated, as in 1.x, and an actor's `@Injected` property is read with `await`.
/// The initializer is `nonisolated`, so actors and nonisolated classes can declare one.
@_documentation(visibility: private)
@available(*, deprecated, message: "Publish an Injection and consume it with @Instance instead; see MIGRATION.md")
@MainActor
@propertyWrapper
public struct Injected<Value> {
  /// The dependency: a main-actor class, so `Sendable`, and set once by the initializer.
  private let dependency: Dependency<Value>

  /// The consumer's dependency; read its instance with `.instance`.
  public var wrappedValue: Dependency<Value> { dependency }

  /// Consumes the dependency at `keyPath` (the 1.x initializer's order).
  ///
  /// You do not call this initializer directly. Instead, declare a property with the
  /// `@Injected` attribute:
  ///
  /// ```swift
  /// @Injected(\.networking, lifespan: .temporary, scope: .local) var network
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The `DefaultValues` property that builds the dependency.
  ///   - lifespan: How long an instance lives.
  ///   - scope: Whether consumers share an instance.
  ///   - fileID: Where the property is declared; recorded for diagnostics.
  ///   - line: Where the property is declared; recorded for diagnostics.
  public nonisolated init(
    _ keyPath: DefaultValues.KeyPath<Value>,
    lifespan: Lifespan = .temporary,
    scope: Scope = .local,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    dependency = Dependency(keyPath, scope: scope, lifespan: lifespan, at: CodeLocation(fileID: fileID, line: line))
  }

  /// Consumes the dependency at `keyPath` (the order the 1.x README wrote).
  ///
  /// You do not call this initializer directly. Instead, declare a property with the
  /// `@Injected` attribute:
  ///
  /// ```swift
  /// @Injected(\.networking, scope: .local, lifespan: .temporary) var network
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The `DefaultValues` property that builds the dependency.
  ///   - scope: Whether consumers share an instance.
  ///   - lifespan: How long an instance lives.
  ///   - fileID: Where the property is declared; recorded for diagnostics.
  ///   - line: Where the property is declared; recorded for diagnostics.
  public nonisolated init(
    _ keyPath: DefaultValues.KeyPath<Value>,
    scope: Scope,
    lifespan: Lifespan,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(keyPath, lifespan: lifespan, scope: scope, fileID: fileID, line: line)
  }
}
