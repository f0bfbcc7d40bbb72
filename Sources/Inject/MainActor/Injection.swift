/// A dependency published beside its implementation: how to build it and how long it lives.
///
/// Declare one `Injection` per dependency, in the module that implements it, and consume it
/// anywhere with ``Instance``. There is no registration step: if the program compiles, every
/// dependency has an instance.
///
/// ```swift
/// // ProfileKit/UserRepository.swift
/// public let userRepositoryInjection = Injection<any UserRepository>(strategy: .singleton, instance: LiveUserRepository())
///
/// // ProfileFeature/ProfileModel.swift
/// import ProfileKit
///
/// @MainActor
/// public final class ProfileModel {
///   @ObservationIgnored @Instance(userRepositoryInjection) private var repository
/// ```
///
/// The initializer is `nonisolated` and does not evaluate `instance`, so a global needs no
/// `@MainActor` and creating it builds nothing. Everything else about an injection is isolated to
/// the main actor: reading consumers, overriding and rolling back.
///
/// Name it after the dependency with an `Injection` suffix, so that a consumer's property can take
/// the dependency's own name. Previews, tests and UI-test launches get their replacements from
/// the values published beside the live one (`preview:`, `test:`, `launchOverrides:`); a test
/// overrides in a scope (`withOverride`, or a testing trait), and a whole target with
/// `override(with:strategy:)` at its start, undone by ``rollbackOverride(fileID:line:)``; see
/// <doc:Overriding>.
@MainActor
public final class Injection<T> {
  /// The strategy the injection was published with.
  public nonisolated var strategy: Strategy { publication.strategy }

  /// What the injection was published with: its location, and the published and test layers at
  /// the bottom of its stacks.
  // NB: `unowned(unsafe)`, like `State.top`, unmanaged, so that `owned` holds it and `deinit` can
  // move it, with the layers and what they captured, to the main actor. It is safe: `owned`
  // holds it from the initializer until `deinit`, after which nothing reads it.
  nonisolated unowned(unsafe) let publication: Publication<MainActorDoor<T>>

  /// What `publication` names: its owner.
  private var owned: Publication<MainActorDoor<T>>?

  /// Where the injection was published.
  nonisolated var location: CodeLocation { publication.location }

  /// What resolution reads for every new consumer, in a cell so that reading it from the
  /// consumer's module costs no exclusivity check.
  // NB: `nonisolated(unsafe)` only because the `nonisolated` initializer must store this
  // non-Sendable cell. It is safe: the initializer creates the cell and is its only user until
  // it returns, and every other access is from a main-actor-isolated member of this class.
  @usableFromInline
  nonisolated(unsafe) let state: Cell<State>

  /// The global stack in `state`, for the general path, which is not specialized for `T`: read
  /// through `state`, it costs an unspecialized `Cell.access` and a metadata look-up, for the
  /// offset of a header whose type depends on `T`.
  // NB: `nonisolated(unsafe)` for the same reason as `state`, and as safely. The pointer stays
  // valid for the life of this injection: it points into `state`'s header, which is allocated
  // with the cell, never moves, and lives as long as the cell, which this injection holds. Only
  // main-actor-isolated code reads or writes through it, as through `state`, and never while an
  // access to `state` is in progress.
  nonisolated(unsafe) let globalStack: UnsafeMutablePointer<GlobalStack>

  /// Whether this injection is building or delegating right now, to catch cycles.
  ///
  /// A field of its own, not in `state`, so that the general path, which is not specialized for
  /// `T`, reads and writes it with one instruction, where it would go through an unspecialized
  /// `Cell.access`. `@exclusivity(unchecked)`: it is main-actor-isolated, and every access is a
  /// whole load or store that runs no other code while it lasts.
  @usableFromInline
  @exclusivity(unchecked)
  var isResolving = false

  /// While ``isResolving``, the injection this one is building or delegating inside, if any: a
  /// link of the chain that a dependency-cycle message names.
  ///
  /// A field of its own as ``isResolving`` is, and as safely.
  @usableFromInline
  @exclusivity(unchecked)
  var outer: Unmanaged<AnyObject>?

  @usableFromInline
  struct State {
    /// The layer that new consumers of the global world resolve from: the last of `stack`, or
    /// the published one, kept here so that the fast path reads one field.
    ///
    /// Unmanaged, so that the fast path reads it with no reference counting. It is safe: the
    /// layer is `stack`'s last or the published one, which the injection holds strongly, and
    /// ``withGlobalStack(_:)``, the only code that changes `stack`, updates it.
    @usableFromInline
    var top: Unmanaged<Layer<MainActorDoor<T>>>
    /// How many layers are on the global stack, the family's included.
    @usableFromInline
    var depth = 0
    /// The global override stack, and the notes of the global world's resolutions.
    @usableFromInline
    var stack = GlobalStack()

    @inlinable
    init(top: Layer<MainActorDoor<T>>) {
      self.top = Unmanaged.passUnretained(top)
    }
  }

  /// Publishes a dependency.
  ///
  /// ```swift
  /// public let networkingInjection = Injection<any Networking>(strategy: .onDemand, instance: HTTPNetworking())
  /// ```
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds a new instance. It is not evaluated here, only when a consumer first
  ///     needs an instance, on the main actor; so a main-actor-isolated initializer is fine.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public nonisolated convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @MainActor () -> T,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      strategy, instance, preview: nil, test: nil, launchOverrides: [], CodeLocation(fileID: fileID, line: line))
  }

  /// Publishes a dependency with the values that previews and tests get by default.
  ///
  /// ```swift
  /// // ProfileKit/APIClient.swift
  /// public let apiClientInjection = Injection<any APIClient>(
  ///   strategy: .singleton,
  ///   instance: LiveAPIClient(),
  ///   preview: MockAPIClient(users: [.preview]),
  ///   test: MockAPIClient(users: [.sample]),
  ///   // …
  /// )
  /// ```
  ///
  /// In a test world (the `.isolatedInjections` or `.overriding` trait, or
  /// ``withIsolatedInjections(operation:)-5w4r9``) consumers resolve `test`; in an Xcode preview
  /// process, `preview`. Explicit overrides, global or scoped, win over both; a launch override
  /// that applies wins over `preview`, and `test` wins over it; elsewhere nothing changes. Both
  /// are built lazily, on the main actor, under `strategy`; see <doc:PreviewsTestsAndUITests>.
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance, lazily, on the main actor.
  ///   - preview: Builds the instance that Xcode previews get by default.
  ///   - test: Builds the instance that test worlds get by default.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch, for UI tests and demo builds; see ``LaunchOverride``.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public nonisolated convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @MainActor () -> T,
    preview: @autoclosure @escaping @MainActor () -> T,
    test: @autoclosure @escaping @MainActor () -> T,
    launchOverrides: [LaunchOverride<T>] = [],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      strategy, instance, preview: preview, test: test, launchOverrides: launchOverrides,
      CodeLocation(fileID: fileID, line: line))
  }

  /// Publishes a dependency with the value that Xcode previews get by default.
  ///
  /// See ``init(strategy:instance:preview:test:launchOverrides:fileID:line:)``.
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance, lazily, on the main actor.
  ///   - preview: Builds the instance that Xcode previews get by default.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch; see ``LaunchOverride``.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public nonisolated convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @MainActor () -> T,
    preview: @autoclosure @escaping @MainActor () -> T,
    launchOverrides: [LaunchOverride<T>] = [],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      strategy, instance, preview: preview, test: nil, launchOverrides: launchOverrides,
      CodeLocation(fileID: fileID, line: line))
  }

  /// Publishes a dependency with the value that test worlds get by default.
  ///
  /// See ``init(strategy:instance:preview:test:launchOverrides:fileID:line:)``.
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance, lazily, on the main actor.
  ///   - test: Builds the instance that test worlds get by default.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch; see ``LaunchOverride``.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public nonisolated convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @MainActor () -> T,
    test: @autoclosure @escaping @MainActor () -> T,
    launchOverrides: [LaunchOverride<T>] = [],
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
  /// ```swift
  /// // ProfileKit/APIClient.swift
  /// public let apiClientInjection = Injection<any APIClient>(
  ///   strategy: .singleton,
  ///   instance: LiveAPIClient(),
  ///   // …
  ///   launchOverrides: [
  ///     .argument("-mock-api", with: MockAPIClient(users: [.demo])),
  ///     .environment("MOCK_API", with: MockAPIClient(users: [.demo])),
  ///   ]
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - strategy: How long instances live and who shares them; see ``Strategy``.
  ///   - instance: Builds the live instance, lazily, on the main actor.
  ///   - launchOverrides: Replacements that a launch argument or environment variable applies
  ///     at launch; the first that applies wins. See ``LaunchOverride``.
  ///   - fileID: Where the injection is published; recorded for diagnostics.
  ///   - line: Where the injection is published; recorded for diagnostics.
  public nonisolated convenience init(
    strategy: Strategy,
    instance: @autoclosure @escaping @MainActor () -> T,
    launchOverrides: [LaunchOverride<T>],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(
      strategy, instance, preview: nil, test: nil, launchOverrides: launchOverrides,
      CodeLocation(fileID: fileID, line: line))
  }

  /// Publishes a dependency: its published layer builds the first launch override that applies,
  /// else the preview value in a preview process, else the live instance.
  nonisolated convenience init(
    _ strategy: Strategy,
    _ instance: @escaping @MainActor () -> T,
    preview: (@MainActor () -> T)?,
    test: (@MainActor () -> T)?,
    launchOverrides: [LaunchOverride<T>],
    _ location: CodeLocation
  ) {
    let publication = Publication<MainActorDoor<T>>(
      strategy, instance: Boxed(instance), preview: preview.map(Boxed.init), test: test.map(Boxed.init),
      launchOverrides: launchOverrides.map { ($0.trigger, Boxed($0.instance)) }, at: location)
    self.init(publication)
  }

  /// An injection published with `publication`: a family's member, or the published form of the
  /// public initializers.
  nonisolated init(_ publication: Publication<MainActorDoor<T>>) {
    self.publication = publication
    self.owned = publication
    let state = Cell.make(State(top: publication.published))
    self.state = state
    self.globalStack = state.withUnsafeMutablePointerToHeader { $0.pointer(to: \.stack).unsafelyUnwrapped }
  }

  deinit {
    // Layers hold no other layer, so releasing the stack is flat. What they hold (the values
    // and closures given to the injection and its overrides) may assume the main actor, which a
    // test's injection may be released off. Every layer is moved out, not copied: were they
    // copied, this object would drop its own references after `deinit` returns, which may be
    // after the main actor dropped the handoff's. The instances stored in the layers' slots
    // take care of themselves; see `InstanceSlot`.
    let (layers, familyDepth) = state.access { $0.stack.takeAll() }
    // The publication holds the published layer, and the engine the publication: both go to
    // the main actor, moved with the layers. Were `then` to capture them, this `deinit` would
    // keep a reference of its own until it returns, while the main actor may already have run
    // `then` and dropped the closure's: the last reference, and the published layer's values,
    // would be released here, off the main actor.
    let publication = owned.take()
    let engine = ownedEngine.take()
    // Only what the layers are named by: the handoff alone holds them, so that a chain of
    // injections, each of whose layers delegates to the next, is released flat.
    let released = ReleasedStack(layers, familyDepth: familyDepth, Layer<MainActorDoor<T>>.self)
    // NB: unretained, so that the handoff holds the publication alone. It is safe: the handoff
    // releases what it carries only after `then` has returned.
    let named = publication.map(Unmanaged.passUnretained)
    MainActorRelease.release((consume layers, consume publication, consume engine)) {
      withExtendedLifetime(Engine.forgettingReleased(released, publishedBy: named?.takeUnretainedValue())) {}
    }
  }

  /// The instance a consumer gets now, for code that has no stored property to keep it in: a
  /// factory that hands its dependencies to an initializer, a free function.
  ///
  /// ```swift
  /// public let analyticsReportInjection = Injection<AnalyticsReport>(
  ///   strategy: .onDemand, instance: AnalyticsReport(analytics: analyticsInjection.resolve()))
  /// ```
  ///
  /// Each call resolves anew, under the strategy of the configuration's top layer, in the
  /// calling task's world: a `.singleton` returns its instance, an `.onDemand` injection builds
  /// one per call. What a factory resolves while it builds, this way or through a consumer it
  /// reads, is an edge of the graph from the injection it builds (see <doc:Diagnostics>). In a
  /// type, consume with ``Instance`` instead, which keeps what it resolved.
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
  /// world if it is in a scope, else from the top of the global stack.
  ///
  /// Inlined into consumers, so that the common cases (no telemetry, no scope alive, and an
  /// instance stored in the top layer or a factory to call) are specialized for `T`.
  @inlinable
  func resolve(from location: CodeLocation) -> T {
    if let storedInstance {
      return storedInstance
    }
    return resolveUnstored(from: location)
  }

  /// The instance a new consumer declared at `location` gets when ``storedInstance`` is `nil`:
  /// built, delegated, or found the general way.
  ///
  /// While some task's world is alive or a telemetry listens, reads the current task's world
  /// once: a consumer outside every world still takes the fast path, specialized for `T`.
  @inlinable
  func resolveUnstored(from location: CodeLocation) -> T {
    if Resolution.isGeneral {
      if case .general(let world) = Resolution.path {
        return resolve(in: world, from: location)
      }
      // ``storedInstance`` did not look, with `isGeneral` set.
      if let stored = fromTopLayer({ $0.slot.stored }) {
        return stored
      }
    }
    // A factory can pop its own layer: the copy of the closure it is called through keeps it
    // alive.
    if let factory = fromTopLayer({ $0.onDemandFactory?.closure }) {
      return guardingCycles(from: location, factory)
    }
    return resolve(in: nil, from: location)
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

  /// The engine, for this injection's type; made on the main actor, where the conformance of
  /// its door is isolated.
  var engine: Engine<MainActorDoor<T>> {
    // Only `makeEngine` stores it, an `Engine<MainActorDoor<T>>`, which `ownedEngine` holds for
    // the life of this injection.
    Engine<MainActorDoor<T>>.unerased((unownedEngine ?? makeEngine()).takeUnretainedValue())
  }

  /// Makes the engine, on the first resolution that needs it.
  @inline(never)
  private func makeEngine() -> Unmanaged<AnyObject> {
    let engine = Engine<MainActorDoor<T>>(publication)
    ownedEngine = engine
    unownedEngine = Unmanaged.passUnretained(engine)
    return Unmanaged.passUnretained(engine)
  }

  /// The engine's door into this injection's type, an `Engine<MainActorDoor<T>>`, made on the
  /// first resolution that needs it, on the main actor.
  ///
  /// Unmanaged and erased, so that reading it costs no reference counting and no metadata
  /// look-up: `ownedEngine` holds it. A field of its own, not in `state`, so that the general
  /// path, which is not specialized for `T`, reads it with one load. `@exclusivity(unchecked)`:
  /// it is main-actor-isolated, and every access is a whole load or store that runs no other
  /// code while it lasts.
  @exclusivity(unchecked)
  private var unownedEngine: Unmanaged<AnyObject>?

  /// What `unownedEngine` names: its owner.
  private var ownedEngine: (any AnyObject & Sendable)?

  /// Runs `body` with the global stack, which it may change, then points the fast path at its
  /// top: the only code that changes the stack.
  func withGlobalStack<R>(_ body: (inout GlobalStack) -> R) -> R {
    state.access { state in
      let result = body(&state.stack)
      let layers = state.stack.layers
      // NB: not `layers.last`: in unspecialized code, `last` reads through a generic collection
      // accessor whose coroutine frame is heap-allocated on every push and pop. Only pushes store
      // there, `Layer<MainActorDoor<T>>`s.
      let top =
        layers.isEmpty
        ? publication.published : Layer<MainActorDoor<T>>.unerased(layers[layers.endIndex - 1])
      state.top = Unmanaged.passUnretained(top)
      state.depth = layers.count
      return result
    }
  }

  /// The instance that the top layer stores for every new consumer, if it has one and
  /// resolution takes the fast path with nothing to check: the part of resolution that runs no
  /// code of the user's.
  @inlinable
  var storedInstance: T? {
    Resolution.isGeneral ? nil : fromTopLayer { $0.slot.stored }
  }

  /// What `read` finds in the top layer of the global stack.
  @inlinable @inline(__always)
  func fromTopLayer<Result>(_ read: (Layer<MainActorDoor<T>>) -> Result?) -> Result? {
    let top = state.access { $0.top }
    // Reads the top layer without retaining it. Safe: it is `top` of this injection, which the
    // caller keeps alive, and `read` runs no code that could pop it.
    return top.withGuaranteedReference(read)
  }

  /// Runs `body`, which builds or delegates for a consumer at `location`; stops with a message
  /// naming the chain if this injection is asked again before `body` returns (a cycle).
  ///
  /// A resolution in the global world (`inGlobalWorld`) records where the injection was first
  /// resolved, for the stale-override warning, which concerns the global world only.
  @inlinable
  func guardingCycles(from location: CodeLocation, inGlobalWorld: Bool = true, _ body: () -> T) -> T {
    let outer = enterResolution(from: location, inGlobalWorld: inGlobalWorld)
    defer { leaveResolution(restoring: outer) }
    return body()
  }

  /// Marks this injection as the innermost one building or delegating, for a consumer at
  /// `location`, in the global world if `inGlobalWorld`.
  ///
  /// Stops with a message naming the chain if it already is (a cycle). Returns the injection it
  /// was entered inside, for ``leaveResolution(restoring:)``.
  @inlinable
  func enterResolution(from location: CodeLocation, inGlobalWorld: Bool) -> Unmanaged<AnyObject>? {
    let outer = Resolution.innermost
    if inGlobalWorld {
      state.access { $0.stack.notes.noteResolution(at: location, depth: $0.depth) }
    }
    if isResolving {
      reportCycle(innermost: outer)
    }
    (isResolving, self.outer) = (true, outer)
    Resolution.innermost = Unmanaged.passUnretained(self)
    return outer
  }

  /// Ends what ``enterResolution(from:inGlobalWorld:)`` began.
  @inlinable
  func leaveResolution(restoring outer: Unmanaged<AnyObject>?) {
    Resolution.innermost = outer
    isResolving = false
  }

  /// Tells the telemetry that a consumer at `location` assigned its own instance.
  @usableFromInline
  func recordLocalOverride(at location: CodeLocation) {
    // Through the door, which names a family's member with its key.
    MainActorDoor<T>.record(.localOverrideSet, self, at: location)
  }

  @usableFromInline
  func reportCycle(innermost: Unmanaged<AnyObject>?) -> Never {
    Resolution.cycle(at: self, innermost: innermost)
  }
}

extension Injection: InjectionIdentity {
  nonisolated var label: String { publication.label }
}
