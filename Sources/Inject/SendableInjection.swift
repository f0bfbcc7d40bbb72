/// A dependency that consumers resolve from any isolation: actors, nonisolated code, detached
/// tasks, and the main actor too.
///
/// The sendable counterpart of ``Injection``: published as a global `let` beside its
/// implementation, with the same strategies. Its type is `Sendable` and its factory is
/// `@Sendable` and nonisolated, so the compiler checks that nothing main-actor-isolated
/// crosses into it.
///
/// ```swift
/// public let imageClientInjection = SendableInjection<any ImageClient>(strategy: .singleton, instance: LiveImageClient())
///
/// actor ImageLoader {
///   @SendableInstance(imageClientInjection) var client
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

  /// What test worlds resolve from instead of `published`, if the injection has a test value.
  let testLayer: SendableLayer<T>?

  /// The global override stack, bottom first.
  @usableFromInline
  let overrides = Locked<[SendableLayer<T>]>([])

  /// Whether a test process reported that this injection built its live instance outside the
  /// test worlds.
  private let reportedLiveBuild = Locked(false)

  /// Publishes a dependency.
  ///
  /// ```swift
  /// public let imageClientInjection = SendableInjection<any ImageClient>(strategy: .singleton, instance: LiveImageClient())
  /// ```
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds a new instance. It is not evaluated here, only when a consumer first
  ///     needs an instance, on the consumer's thread.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @Sendable () -> T,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      strategy, instance, preview: nil, test: nil, launchOverrides: [], CodeLocation(fileID: fileID, line: line))
  }

  /// Publishes a dependency with the values that previews and tests get by default.
  ///
  /// In a test world consumers resolve `test`; in an Xcode preview process, `preview`.
  /// Explicit overrides, global or scoped, win over both; a launch override that applies wins
  /// over `preview`, and `test` wins over it.
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance, lazily, on the consumer's thread.
  ///   - preview: Builds the instance that Xcode previews get by default.
  ///   - test: Builds the instance that test worlds get by default.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch; see ``SendableLaunchOverride``.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @Sendable () -> T,
    preview: @autoclosure @escaping @Sendable () -> T,
    test: @autoclosure @escaping @Sendable () -> T,
    launchOverrides: [SendableLaunchOverride<T>] = [],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      strategy, instance, preview: preview, test: test, launchOverrides: launchOverrides,
      CodeLocation(fileID: fileID, line: line))
  }

  /// Publishes a dependency with the value that Xcode previews get by default.
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance, lazily, on the consumer's thread.
  ///   - preview: Builds the instance that Xcode previews get by default.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch; see ``SendableLaunchOverride``.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @Sendable () -> T,
    preview: @autoclosure @escaping @Sendable () -> T,
    launchOverrides: [SendableLaunchOverride<T>] = [],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      strategy, instance, preview: preview, test: nil, launchOverrides: launchOverrides,
      CodeLocation(fileID: fileID, line: line))
  }

  /// Publishes a dependency with the value that test worlds get by default.
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance, lazily, on the consumer's thread.
  ///   - test: Builds the instance that test worlds get by default.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch; see ``SendableLaunchOverride``.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @Sendable () -> T,
    test: @autoclosure @escaping @Sendable () -> T,
    launchOverrides: [SendableLaunchOverride<T>] = [],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      strategy, instance, preview: nil, test: test, launchOverrides: launchOverrides,
      CodeLocation(fileID: fileID, line: line))
  }

  /// Publishes a dependency that a launch argument or environment variable can replace at
  /// launch, for UI tests and demo builds.
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance, lazily, on the consumer's thread.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch; the first that applies wins. See ``SendableLaunchOverride``.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @Sendable () -> T,
    launchOverrides: [SendableLaunchOverride<T>],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      strategy, instance, preview: nil, test: nil, launchOverrides: launchOverrides,
      CodeLocation(fileID: fileID, line: line))
  }

  /// Publishes a dependency: its published layer builds the first launch override that applies,
  /// else the preview value in a preview process, else the live instance.
  init(
    _ strategy: Strategy, _ instance: @escaping @Sendable () -> T, preview: (@Sendable () -> T)?,
    test: (@Sendable () -> T)?, launchOverrides: [SendableLaunchOverride<T>], _ location: CodeLocation
  ) {
    let (build, origin): (@Sendable () -> T, InjectionEvent.Layer) =
      if let launchOverride = launchOverrides.first(where: \.trigger.applies) {
        (launchOverride.instance, .launchOverride(launchOverride.trigger.reason))
      } else if let preview, ProcessContext.isPreview {
        (preview, .preview)
      } else {
        (instance, .published)
      }
    self.strategy = strategy
    self.location = location
    self.published = SendableLayer(.instance(build), strategy: strategy, location: location, origin: origin)
    self.testLayer = test.map { SendableLayer(.instance($0), strategy: strategy, location: location, origin: .test) }
  }

  /// The instance a consumer gets now, for code that has no stored property to keep it in: a
  /// detached task, a free function.
  ///
  /// ```swift
  /// Task.detached { try await imageClientInjection.resolve().upload(report) }
  /// ```
  ///
  /// - Parameters:
  ///   - fileID: Where the instance is resolved; recorded for diagnostics.
  ///   - line: Where the instance is resolved; recorded for diagnostics.
  /// - Returns: The instance that the strategy of the configuration's top layer gives.
  public func resolve(fileID: StaticString = #fileID, line: UInt = #line) -> T {
    resolve(from: CodeLocation(fileID: fileID, line: line))
  }

  /// The instance a new consumer declared at `location` gets now: from the current task's
  /// world if it is in one, else from the top of the global stack.
  ///
  /// Inlined into consumers, so that the common cases (outside every world, an instance stored
  /// in the top layer or an on-demand factory to call) are specialized for `T`.
  @inlinable
  func resolve(from location: CodeLocation) -> T {
    guard SendableFastPath.isOpen || (World.current == nil && !SendableTelemetry.isActive) else {
      return resolveUnstored(from: location)
    }
    // NB: not `$0.last`, which is not specialized here.
    let top = overrides.withLock { $0.isEmpty ? published : $0[$0.endIndex - 1] }
    if let build = top.onDemandFactory {
      return BuildChain.building(self, build)
    }
    if let stored = top.slot.stored {
      return stored
    }
    return resolveUnstored(from: location)
  }

  /// The instance a new consumer declared at `location` gets in the current task's world (or
  /// the global world) when the fast path found none to return: built, delegated, or found in
  /// a world's slot.
  @usableFromInline
  func resolveUnstored(from location: CodeLocation) -> T {
    resolve(in: World.current?.sendable, from: location)
  }

  /// The instance a new consumer declared at `location` gets in `world` (`nil`: the global
  /// world).
  private func resolve(in world: SendableWorld?, from location: CodeLocation) -> T {
    let configuration = Configuration(self, in: world)
    let position = configuration.top(of: self)
    let layer = configuration.layer(at: position, of: self)
    if case .injection(let other) = layer.source {
      return BuildChain.building(self) { other.resolve(in: world, from: location) }
    }
    guard let strategy = layer.strategy, !layer.isOnDemand else {
      let instance = BuildChain.building(self) { make(from: position, in: configuration, for: location) }
      SendableTelemetry.record(.built(layer.origin), self, at: location)
      return instance
    }
    let slot = world?.slot(for: layer) ?? layer.slot
    // The global world's log, or its test's: the worlds of scopes outside tests have none.
    let log = world.map { $0.testStacks?.log } ?? SendableRollbackLog.global
    var built = false
    let instance = slot.instance(of: self, strategy: strategy, log: log) {
      built = true
      return BuildChain.building(self) { make(from: position, in: configuration, for: location) }
    }
    SendableTelemetry.record(built ? .built(layer.origin) : .returnedFromStorage(layer.origin), self, at: location)
    return instance
  }

  /// A new instance from the layer at `position` in `configuration`, decorated by every
  /// decorator on the way down to a layer that builds.
  ///
  /// Walks down iteratively, gathering the decorators before running any code of the user's,
  /// so that any number of decorators takes constant stack, and a factory that pushes or pops
  /// overrides cannot change which layers this build uses.
  private func make(from position: Position, in configuration: Configuration, for location: CodeLocation) -> T {
    var decorators: [@Sendable (T) -> T] = []
    var position = position
    var instance: T
    while true {
      let layer = configuration.layer(at: position, of: self)
      switch layer.source {
      case .instance(let build):
        noteLiveBuild(layer, in: configuration.world, for: location)
        instance = build()
      case .transform(let decorate):
        decorators.append(decorate)
        position = configuration.beneath(position, of: self)
        continue
      case .injection(let other):
        // A decorator above a delegation decorates a new instance of the other injection.
        let inOther = Configuration(other, in: configuration.world)
        instance = BuildChain.building(other) { other.make(from: inOther.top(of: other), in: inOther, for: location) }
      }
      break
    }
    while let decorate = decorators.popLast() {
      instance = decorate(instance)
    }
    return instance
  }

  /// Tells the telemetry, if one is installed, that a consumer at `location` assigned its own
  /// instance.
  @usableFromInline
  func recordLocalOverride(at location: CodeLocation) {
    SendableTelemetry.record(.localOverrideSet, self, at: location)
  }

  /// Tells a test process, once, that `layer`, the published one, builds the live instance in
  /// the global world (or a scope opened outside every test world) of an injection that
  /// publishes a test value.
  private func noteLiveBuild(_ layer: SendableLayer<T>, in world: SendableWorld?, for location: CodeLocation) {
    guard ProcessContext.isTesting, layer === published, testLayer != nil, world?.isTest != true,
      layer.origin == .published,
      reportedLiveBuild.withLock({ reported in
        defer { reported = true }
        return !reported
      })
    else { return }
    SendableTelemetry.record(.liveValueInTest, self, at: location)
  }

  // MARK: - Positions in the configuration

  /// The configuration of an injection as one resolution reads it: the world, and a snapshot of
  /// the global stack, so that what other threads push or pop meanwhile changes nothing of it.
  struct Configuration {
    let world: SendableWorld?
    let globals: [SendableLayer<T>]

    init(_ injection: SendableInjection<T>, in world: SendableWorld?) {
      self.world = world
      self.globals = injection.overrides.withLock { $0 }
    }

    /// The top of the configuration: the world's scoped override, or the top of its test's
    /// stack, or the top of the global stack.
    func top(of injection: SendableInjection<T>) -> Position {
      if let scoped = world?.override(of: injection) {
        return .scoped(scoped)
      }
      return topBeneathScopes(of: injection)
    }

    /// The top of the configuration beneath the scoped overrides: the test's stack, or the
    /// global stack.
    func topBeneathScopes(of injection: SendableInjection<T>) -> Position {
      if let stacks = world?.testStacks, case let depth = stacks.depth(of: injection), depth > 0 {
        return .tested(stacks, depth)
      }
      return .global(globals.count)
    }

    /// The layer at `position`: a test world resolves the test value, if there is one, instead
    /// of the published layer.
    func layer(at position: Position, of injection: SendableInjection<T>) -> SendableLayer<T> {
      switch position {
      case .scoped(let scoped):
        return scoped.layer(as: T.self)
      case .tested(let stacks, let depth):
        // Popped meanwhile by another thread: the global stack is beneath.
        return stacks.layer(of: injection, at: depth) ?? layer(at: .global(globals.count), of: injection)
      case .global(0):
        return world?.isTest == true ? injection.testLayer ?? injection.published : injection.published
      case .global(let depth):
        return globals[depth - 1]
      }
    }

    /// The position beneath `position`: only decorators ask, and the published layer is never
    /// one.
    func beneath(_ position: Position, of injection: SendableInjection<T>) -> Position {
      switch position {
      case .scoped(let scoped): scoped.beneath.map(Position.scoped) ?? topBeneathScopes(of: injection)
      case .tested(let stacks, let depth): depth > 1 ? .tested(stacks, depth - 1) : .global(globals.count)
      case .global(let depth): .global(depth - 1)
      }
    }
  }

  /// Where a layer sits in the configuration: a scope's override, a depth of the test's stack,
  /// or a depth of the global stack (0: the published layer).
  enum Position {
    case scoped(SendableScopedOverride)
    case tested(SendableTestStacks, Int)
    case global(Int)
  }
}

extension SendableInjection: BuildIdentity {
  @usableFromInline
  package var label: String { "SendableInjection<\(T.self)> (\(location))" }
}
