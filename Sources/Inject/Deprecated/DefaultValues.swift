/// The 1.x home of dependencies: an extension per dependency, with a computed property that
/// builds an instance.
///
/// ```swift
/// extension DefaultValues {
///   var networking: Networking { HTTPNetworking() }
/// }
/// ```
///
/// In 2.0, publish an ``Injection`` beside the implementation instead; see
/// [MIGRATION.md](https://github.com/inject-swift/Inject/blob/main/MIGRATION.md).
@_documentation(visibility: private)
@available(*, deprecated, message: "Publish an Injection beside the implementation instead; see MIGRATION.md")
public struct DefaultValues {
  /// A key path to a dependency of type `Value`.
  public typealias KeyPath<Value> = any Swift.KeyPath<DefaultValues, Value> & Sendable

  /// The values; 1.x builds one for each new instance.
  public init() {}
}

/// Whether 1.x consumers of a key path share an instance.
@_documentation(visibility: private)
@available(*, deprecated, message: "Choose a Strategy where the Injection is published instead; see MIGRATION.md")
public enum Scope: Sendable {
  /// A new instance for each `@Injected`.
  case local
  /// The same instance for all `@Injected` of the key path.
  case shared
}

/// How long a 1.x instance lives.
@_documentation(visibility: private)
@available(*, deprecated, message: "Choose a Strategy where the Injection is published instead; see MIGRATION.md")
public enum Lifespan: Sendable {
  /// Deallocated when the last `@Injected` referencing it is deallocated.
  case temporary
  /// Kept until the app ends.
  case permanent
}
