public import _InjectShims

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
/// Overrides, scopes, test worlds and their checks, sessions, the graph and the telemetry know it
/// as they know `Injection`: one engine serves both. See <doc:MainActorAndSendableInjections>.
public final class SendableInjection<T: Sendable>: Sendable {
  /// The strategy the injection was published with.
  public var strategy: Strategy { publication.strategy }

  /// What the injection was published with: its location, and the published and test layers at
  /// the bottom of its stacks.
  @usableFromInline
  let publication: Publication<SendableDoor<T>>

  /// Where the injection was published.
  var location: CodeLocation { publication.location }

  /// The engine, for this injection's type.
  let engine: Engine<SendableDoor<T>>

  /// The global override stack and what the diagnostics keep of the global world, behind a lock.
  @usableFromInline
  let state = Locked(State())

  /// Whether the fast path resolves from the published layer with nothing to note, and so takes
  /// no lock of the injection's own: nothing is pushed, and the published layer stores, or the
  /// first consumer of the global world that it built for is noted already
  /// (``GlobalStack/resolvesFromPublished(of:)``). Kept under the lock of
  /// ``state`` with every change of the stack.
  ///
  /// Read with acquire ordering, written with release ordering (`_InjectShims`): a resolution
  /// that follows a push in its thread, or learned of the push from a value the pushing thread
  /// set afterwards, finds the flag clear; one that overlaps a push or a pop resolves as if it came
  /// before or after it, as it would under the lock.
  // NB: `nonisolated(unsafe)` only because a pointer is not `Sendable`. It is safe: the flag is
  // initialized before any other thread can reach this object, freed in `deinit` when none can,
  // and otherwise read and written only through `_inject_flag_acquire` and
  // `_inject_flag_release`, which are atomic.
  @usableFromInline
  nonisolated(unsafe) let resolvesFromPublished = UnsafeMutablePointer<Bool>.allocate(capacity: 1)

  @usableFromInline
  struct State: Sendable {
    /// The global override stack, and the notes of the global world's resolutions.
    @usableFromInline
    var stack = GlobalStack()

    @usableFromInline
    init() {}
  }

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

  /// Publishes a dependency.
  convenience init(
    _ strategy: Strategy, _ instance: @escaping @Sendable () -> T, preview: (@Sendable () -> T)?,
    test: (@Sendable () -> T)?, launchOverrides: [SendableLaunchOverride<T>], _ location: CodeLocation
  ) {
    self.init(
      Publication<SendableDoor<T>>(
        strategy, instance: Boxed(instance), preview: preview.map(Boxed.init), test: test.map(Boxed.init),
        launchOverrides: launchOverrides.map { ($0.trigger, Boxed($0.instance)) }, at: location))
  }

  /// An injection published with `publication`: a family's member, or the published form of the
  /// public initializers.
  init(_ publication: Publication<SendableDoor<T>>) {
    self.publication = publication
    self.engine = Engine(publication)
    resolvesFromPublished.initialize(to: GlobalStack().resolvesFromPublished(of: publication))
  }

  deinit {
    resolvesFromPublished.deallocate()
    let (layers, familyDepth) = state.withLock { $0.stack.takeAll() }
    let forgotten = Engine.forgettingReleased(
      ReleasedStack(layers, familyDepth: familyDepth, Layer<SendableDoor<T>>.self), publishedBy: publication)
    // Released flat: a layer may delegate to another injection, whose own release then waits
    // for this one to return, so that a chain of any length takes constant stack. Moved, not
    // copied: a copy left here would be the last reference, released when `deinit` returns,
    // outside the flat release, and recursively.
    FlatRelease.onThisThread.release((consume layers, forgotten))
  }

  /// The instance a consumer gets now, for code that has no stored property to keep it in: a
  /// detached task, a free function.
  ///
  /// ```swift
  /// Task.detached { try await imageClientInjection.resolve().upload(report) }
  /// ```
  ///
  /// Each call resolves anew, under the strategy of the configuration's top layer, in the
  /// calling task's world. It is how a factory hands a dependency to an initializer, and what it
  /// resolves is then an edge of the graph from the injection it builds:
  ///
  /// ```swift
  /// let thumbnailRendererInjection = SendableInjection<ThumbnailRenderer>(
  ///   strategy: .singleton, instance: ThumbnailRenderer(client: imageClientInjection.resolve()))
  /// ```
  ///
  /// - Parameters:
  ///   - fileID: Where the instance is resolved; recorded for diagnostics.
  ///   - line: Where the instance is resolved; recorded for diagnostics.
  /// - Returns: The instance that the strategy of the configuration's top layer gives.
  @inlinable
  public func resolve(fileID: StaticString = #fileID, line: UInt = #line) -> T {
    resolve(from: CodeLocation(fileID: fileID, line: line))
  }

  /// The instance a new consumer declared at `location` gets now: from the current task's
  /// world if it is in one, else from the top of the global stack.
  ///
  /// Inlined into consumers, so that the common cases (outside every world, with no build in
  /// progress: an instance stored in the top layer or an on-demand factory to call) are
  /// specialized for `T`.
  @inlinable
  func resolve(from location: CodeLocation) -> T {
    guard SendableFastPath.isOpen else {
      return resolve(in: World.current, from: location)
    }
    let top =
      _inject_flag_acquire(resolvesFromPublished)
      ? publication.published
      : state.withLock { state in
        // Only pushes store there, `Layer<SendableDoor<T>>`s.
        let top =
          state.stack.layers.isEmpty
          ? publication.published
          : Layer<SendableDoor<T>>.unerased(state.stack.layers[state.stack.layers.endIndex - 1])
        // An on-demand layer builds for this consumer: the first such resolution is noted here,
        // under the lock already held, for the stale-override warning.
        if top.onDemandFactory != nil {
          state.stack.notes.noteResolution(at: location, depth: state.stack.layers.count)
          _inject_flag_release(resolvesFromPublished, state.stack.resolvesFromPublished(of: publication))
        }
        return top
      }
    if let factory = top.onDemandFactory?.closure {
      return build(onFastPath: factory)
    }
    if let stored = top.slot.stored {
      return stored
    }
    return resolve(in: nil, from: location)
  }

  /// A new instance from `factory`, an on-demand layer's of the global world, on the fast path.
  @usableFromInline
  func build(onFastPath factory: @Sendable () -> T) -> T {
    BuildChain.building(self, factory)
  }

  /// The instance a new consumer declared at `location` gets in `world` (`nil`: the global
  /// world), the general way: the engine's.
  @usableFromInline
  func resolve(in world: World?, from location: CodeLocation) -> T {
    engine.resolve(self, in: world, from: location)
  }

  /// The instance that a consumer declared at `location`, made in a world of `configuration`,
  /// gets now: the engine's (``Engine/resolve(_:remembering:from:)``).
  @usableFromInline
  func resolve(remembering configuration: Unmanaged<WorldConfiguration>, from location: CodeLocation) -> T {
    engine.resolve(self, remembering: configuration, from: location)
  }

  /// Notes, the first time, that a consumer of the global world at `location` resolves from the
  /// top of the global stack.
  func noteFirstResolution(at location: CodeLocation) {
    withGlobalStack { $0.notes.noteResolution(at: location, depth: $0.layers.count) }
  }

  /// Runs `body` with the global stack, which it may change, under its lock; keeps
  /// ``resolvesFromPublished`` true to what it leaves.
  func withGlobalStack<R>(_ body: (inout GlobalStack) -> R) -> R {
    state.withLock { state in
      defer { _inject_flag_release(resolvesFromPublished, state.stack.resolvesFromPublished(of: publication)) }
      return body(&state.stack)
    }
  }

  /// Tells the telemetry, if one is installed, that a consumer at `location` assigned its own
  /// instance.
  @usableFromInline
  func recordLocalOverride(at location: CodeLocation) {
    // Through the door, which names a family's member with its key.
    SendableDoor<T>.record(.localOverrideSet, self, at: location)
  }
}

extension SendableInjection: BuildIdentity, ReportsWaits {
  @usableFromInline
  package var label: String { publication.label }

  func reportWait(for building: String, chain: [String], at consumer: CodeLocation) {
    SendableTelemetry.recordWithoutWaiting(
      .waitingForBuild(building: building, chain: chain), of: SendableDoor<T>.self, publishedAt: location,
      at: consumer)
  }
}
