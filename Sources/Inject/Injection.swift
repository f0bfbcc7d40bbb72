/// A dependency published beside its implementation: how to build it and how long it lives.
///
/// Declare one `Injection` per dependency, in the module that implements it, and consume it
/// anywhere with ``Instance``. There is no registration step: if the program compiles, every
/// dependency has an instance.
///
/// ```swift
/// // ServicePackage
/// public let service = Injection<any Service>(strategy: .shared, instance: ServiceImplementation())
///
/// // App
/// import ServicePackage
///
/// final class Consumer {
///   @Instance(ServicePackage.service) var service
/// }
/// ```
///
/// The initializer is `nonisolated` and does not evaluate `instance`, so a global needs no
/// `@MainActor` and creating it builds nothing. Everything else about an injection is isolated to
/// the main actor: reading consumers, overriding and rolling back.
///
/// Tests, previews and demo targets replace the implementation with ``override(with:strategy:fileID:line:)-(T,_,_,_)``
/// and undo it with ``rollbackOverride()``; see <doc:Overriding>.
@MainActor
public final class Injection<T> {
  /// The strategy the injection was published with.
  public nonisolated let strategy: Strategy

  /// Where the injection was published.
  let location: SourceLocation

  /// The published configuration: the bottom of the override stack, never popped.
  let published: Layer<T>

  /// The global override stack, bottom first.
  var overrides: [Layer<T>] = []

  /// The layer that new consumers resolve from when no scoped override applies.
  var top: Layer<T>

  /// How many task-local scopes override this injection right now, in any task.
  ///
  /// While it is zero, resolving does not look up task-local values at all.
  var activeScopes = 0

  /// Publishes a dependency.
  ///
  /// ```swift
  /// public let networking = Injection<any Networking>(strategy: .singleton, instance: HTTPNetworking())
  /// ```
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds a new instance. It is not evaluated here, only when a consumer first
  ///     needs an instance, on the main actor; so a main-actor-isolated initializer is fine.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public nonisolated init(
    strategy: Strategy,
    instance: @autoclosure @escaping @MainActor () -> T,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    let location = SourceLocation(fileID: fileID, line: line)
    let published = Layer(.instance(instance), strategy: strategy, location: location)
    self.strategy = strategy
    self.location = location
    self.published = published
    self.top = published
  }

  /// The instance a new consumer gets now: from the innermost scoped override of the current
  /// task if there is one, else from the top of the global override stack.
  func resolve() -> T {
    effectiveTop.resolve(for: self)
  }

  /// A new instance from the current configuration, never a stored one.
  func make() -> T {
    let layer = effectiveTop
    return Resolution.track(self) { layer.make() }
  }

  /// The layer that resolves for the current task.
  var effectiveTop: Layer<T> {
    if activeScopes != 0, let scoped = Scope.layer(for: self) {
      return scoped
    }
    return top
  }
}

extension Injection: InjectionIdentity {
  var label: String { "Injection<\(T.self)> (\(location))" }
}
