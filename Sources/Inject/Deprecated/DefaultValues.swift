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
/// [MIGRATION.md](https://github.com/MaximBazarov/Inject/blob/main/MIGRATION.md).
///
/// Like 1.x's, the type is isolated to the main actor, so the properties of its extensions are
/// too: a property can build a type whose initializer is main-actor-isolated, and 1.x builds
/// every instance on the main actor.
@_documentation(visibility: private)
@available(*, deprecated, message: "Publish an Injection beside the implementation instead; see MIGRATION.md")
@MainActor
public final class DefaultValues {
  /// A key path to a dependency of type `Value`.
  public typealias KeyPath<Value> = Swift.KeyPath<DefaultValues, Value>

  /// The values; 1.x builds one for each new instance.
  init() {}
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
