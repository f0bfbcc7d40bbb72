/// A dependency that consumers resolve from any isolation: actors, nonisolated code, detached
/// tasks, and the main actor too.
///
/// The sendable counterpart of ``Injection``: published as a global `let` beside its
/// implementation, with the same strategies. Its type is `Sendable` and its factory is
/// `@Sendable` and nonisolated, so the compiler checks that nothing main-actor-isolated
/// crosses into it.
///
/// ```swift
/// public let apiClientInjection = SendableInjection<any APIClient>(strategy: .singleton, instance: LiveAPIClient())
///
/// actor ImageLoader {
///   @SendableInstance(apiClientInjection) var apiClient
/// }
/// ```
///
/// A first resolution builds once however many threads ask at once: the first builds, outside
/// any lock, and the others wait for that build alone (a per-slot once), so a factory that takes
/// long or resolves other injections blocks no other slot. A factory that needs itself, on one
/// thread or across threads, stops the program with the cycle message.
///
/// > Important: Experimental. Scopes (`withOverride`), test worlds, telemetry and the graph do
/// > not know sendable injections yet: resolution reads the global configuration everywhere.
@_spi(SendableInjections)
public final class SendableInjection<T: Sendable>: Sendable {
  /// The strategy the injection was published with.
  public let strategy: Strategy

  /// Where the injection was published.
  let location: CodeLocation

  /// The published configuration: the bottom of the override stack, never popped.
  @usableFromInline
  let published: SendableLayer<T>

  /// The global override stack, bottom first.
  @usableFromInline
  let overrides = Locked<[SendableLayer<T>]>([])

  /// Publishes a dependency.
  ///
  /// ```swift
  /// public let apiClientInjection = SendableInjection<any APIClient>(strategy: .singleton, instance: LiveAPIClient())
  /// ```
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds a new instance. It is not evaluated here, only when a consumer first
  ///     needs an instance, on the consumer's thread.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public init(
    strategy: Strategy,
    instance: @autoclosure @escaping @Sendable () -> T,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    let location = CodeLocation(fileID: fileID, line: line)
    self.strategy = strategy
    self.location = location
    self.published = SendableLayer(.instance(instance), strategy: strategy, location: location)
  }

  /// The instance a consumer gets now, for code that has no stored property to keep it in: a
  /// detached task, a free function.
  ///
  /// ```swift
  /// Task.detached { try await apiClientInjection.resolve().upload(report) }
  /// ```
  ///
  /// - Parameters:
  ///   - fileID: Where the instance is resolved; recorded for diagnostics.
  ///   - line: Where the instance is resolved; recorded for diagnostics.
  /// - Returns: The instance that the strategy of the configuration's top layer gives.
  public func resolve(fileID: StaticString = #fileID, line: UInt = #line) -> T {
    resolve(from: CodeLocation(fileID: fileID, line: line))
  }

  /// The instance a new consumer declared at `location` gets now.
  ///
  /// Inlined into consumers, so that the common case, an instance stored in the top layer, is
  /// specialized for `T`.
  @inlinable
  func resolve(from location: CodeLocation) -> T {
    let top = overrides.withLock { $0.last ?? published }
    if let build = top.onDemandFactory {
      return BuildChain.building(self, build)
    }
    if let stored = top.slot.stored {
      return stored
    }
    return resolveUnstored(from: location)
  }

  /// The instance a new consumer declared at `location` gets when the top layer stores none:
  /// built, delegated, or found after all (another thread stored it meanwhile).
  @usableFromInline
  func resolveUnstored(from location: CodeLocation) -> T {
    let layers = overrides.withLock { $0 }
    let top = layers.count - 1
    let layer = self.layer(at: top, of: layers)
    if case .injection(let other) = layer.source {
      return BuildChain.building(self) { other.resolve(from: location) }
    }
    guard let strategy = layer.strategy, !layer.isOnDemand else {
      return BuildChain.building(self) { make(from: top, of: layers) }
    }
    return layer.slot.instance(of: self, strategy: strategy, log: .global) {
      BuildChain.building(self) { make(from: top, of: layers) }
    }
  }

  /// The layer at `index` of `layers`, a snapshot of the override stack; -1 is the published
  /// layer.
  private func layer(at index: Int, of layers: [SendableLayer<T>]) -> SendableLayer<T> {
    index < 0 ? published : layers[index]
  }

  /// A new instance from the layer at `index` of `layers`, decorated by every decorator on the
  /// way down to a layer that builds.
  ///
  /// Walks down iteratively, gathering the decorators before running any code of the user's,
  /// so that any number of decorators takes constant stack, and a factory that pushes or pops
  /// overrides cannot change which layers this build uses.
  private func make(from index: Int, of layers: [SendableLayer<T>]) -> T {
    var decorators: [@Sendable (T) -> T] = []
    var index = index
    var instance: T
    while true {
      switch layer(at: index, of: layers).source {
      case .instance(let build):
        instance = build()
      case .transform(let decorate):
        decorators.append(decorate)
        index -= 1
        continue
      case .injection(let other):
        // A decorator above a delegation decorates a new instance of the other injection.
        instance = BuildChain.building(other) { other.makeFromTop() }
      }
      break
    }
    while let decorate = decorators.popLast() {
      instance = decorate(instance)
    }
    return instance
  }

  /// A new instance from the top of the configuration, for a decorator of an injection that
  /// delegates here.
  private func makeFromTop() -> T {
    let layers = overrides.withLock { $0 }
    return make(from: layers.count - 1, of: layers)
  }
}

extension SendableInjection: BuildIdentity {
  @usableFromInline
  package var label: String { "SendableInjection<\(T.self)> (\(location))" }
}
