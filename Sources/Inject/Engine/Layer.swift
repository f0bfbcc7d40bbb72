import _InjectShims

/// One entry of an injection's configuration: where its instances come from, and with which
/// strategy; the same for both kinds of injection, whose door (`D`) gives the closures' types.
///
/// The published configuration is the bottom layer; every global override pushes another, and
/// every scoped override is a layer that its scope's ``World`` holds. A layer holds no other
/// layer: a decorator asks whichever layer is beneath it where it resolves, so releasing any
/// number of layers is flat.
///
/// What a layer built is kept in a slot of the world that resolved it; the global world's slot
/// sits here, beside the configuration, so that the fast path reaches it in one load.
@usableFromInline
final class Layer<D: DoorTypes>: Sendable {
  /// Where a layer's instances come from, as it is made.
  enum Source {
    /// Builds a new instance: the published factory or a plain replacement.
    case instance(D.Factory)
    /// Decorates a new instance made by the layer beneath.
    case transform(D.Decorator)
    /// Delegates to another injection of the same kind, with its strategy, storage and
    /// overrides.
    case injection(D.Injection)
  }

  // Every field has a fixed layout, whatever `D` (the closures are boxed), so that the engine,
  // which is not specialized for `D`, reads a layer with no generic-metadata lookup.

  /// The strategy, or `nil` for a layer that delegates to another injection.
  @usableFromInline
  let strategy: Strategy?
  /// What the layer built for the global world.
  @usableFromInline
  let slot: D.Slot
  /// The factory of an `.onDemand` layer that builds, which the fast path calls directly.
  @usableFromInline
  let onDemandFactory: D.Factory?
  /// What builds an instance, for a layer that builds.
  let factory: D.Factory?
  /// What decorates the instance of the layer beneath, for a decorator.
  let decorator: D.Decorator?
  /// The injection the layer delegates to, for a delegation.
  let delegate: D.Injection?
  /// Whether the strategy is `.onDemand`: read where a copy of the strategy, an enum with a
  /// payload, would cost more than the check.
  let isOnDemand: Bool
  /// Where the layer was published or pushed.
  let location: CodeLocation
  /// Which layer of the configuration this is, as telemetry names it.
  let origin: InjectionEvent.Layer
  /// The epoch of the rollback log at the push, for an override; see ``RollbackLog``.
  let pushEpoch: UInt64
  /// For a family override's layer, what a strict test noted as the override given.
  private let givenAs: FamilyOverrideToken?
  /// A number that no other layer of the process has, unlike its address: what a world's
  /// configuration names it by without holding it (``WorldConfiguration/remnant(of:)``).
  let serial = _inject_next_layer_serial()
  /// Whether the layer was popped from a stack: every world forgets its slots then, and a world
  /// that makes one after, for a resolution that read the stack before the pop, forgets it at
  /// once (``World/slot(for:_:resolvedBy:)``); the global world does not list what it stores after
  /// (``World/isPopped(_:)``).
  // NB: `nonisolated(unsafe)` so that this `Sendable` layer can be marked. It is safe: it is read
  // and written only under the lock of `World.holders` (`World.notePopped`, `World.noteSlot`,
  // `World.isPopped`).
  nonisolated(unsafe) var isPopped = false

  /// A layer; `strategy` is `nil` for one that delegates to another injection.
  ///
  /// With `buildsOnFastPath` false, the fast path does not call its factory: it builds on the
  /// general path.
  init(
    _ source: Source, strategy: Strategy?, location: CodeLocation, origin: InjectionEvent.Layer, pushEpoch: UInt64 = 0,
    buildsOnFastPath: Bool = true, givenAs: FamilyOverrideToken? = nil
  ) {
    (factory, decorator, delegate) =
      switch source {
      case .instance(let factory): (factory, nil, nil)
      case .transform(let decorator): (nil, decorator, nil)
      case .injection(let other): (nil, nil, other)
      }
    self.strategy = strategy
    self.isOnDemand = strategy?.isOnDemand ?? false
    self.onDemandFactory = buildsOnFastPath && isOnDemand ? factory : nil
    self.location = location
    self.origin = origin
    self.pushEpoch = pushEpoch
    self.givenAs = givenAs
    self.slot = D.makeSlot()
  }

  /// Whether the layer decorates the layer beneath.
  var decorates: Bool { decorator != nil }

  /// What a strict test noted as the override given: the layer, or its family override's token.
  var given: any AnyObject & Sendable { givenAs ?? self }

  /// Whether a family override made the layer, for one of the family's members.
  var isFamilyOverrides: Bool { givenAs != nil }
}

/// Read back from an injection's stacks (its global stack, a test's), a scope's override and a
/// family's overrides, which hold layers type-erased, for either door. Safe: each holds, for an
/// injection of door `D`, only the `Layer<D>`s made for it: a push, a scope or a family override
/// makes its layer from the injection (or the family's member) it overrides, with that
/// injection's door, and nothing else stores there.
extension Layer: Unerasable {}

/// A closure of either kind of injection, boxed, so that a layer holds it at a fixed size,
/// whatever its type.
@usableFromInline
final class Boxed<Closure: Sendable>: Sendable {
  @usableFromInline
  let closure: Closure

  init(_ closure: Closure) {
    self.closure = closure
  }
}

/// What an injection of either kind was published with: its strategy, where, and the layers
/// that the global world and test worlds resolve from at the bottom of its stacks.
@usableFromInline
final class Publication<D: DoorTypes>: Sendable {
  /// The strategy the injection was published with.
  let strategy: Strategy
  /// Where the injection was published.
  let location: CodeLocation
  /// The published configuration: the bottom of the override stack, never popped.
  ///
  /// It builds the first launch override that applies, else the preview value in a preview
  /// process, else the live instance.
  @usableFromInline
  let published: Layer<D>
  /// What test worlds resolve from instead of ``published``, if the injection has a test value.
  let testLayer: Layer<D>?
  /// The family and key of a family's member; `nil` for an injection published on its own.
  let family: FamilyLink?
  /// What the injection's builds resolved, for the graph, by layer: noted at the end of each
  /// build.
  private let builtWith = Locked(BuildEdges())

  /// The publication of an injection with these values.
  init(
    _ strategy: Strategy, instance: D.Factory, preview: D.Factory?, test: D.Factory?,
    launchOverrides: [(trigger: LaunchTrigger, instance: D.Factory)], at location: CodeLocation,
    family: FamilyLink? = nil
  ) {
    let (build, origin): (D.Factory, InjectionEvent.Layer) =
      if let launchOverride = launchOverrides.first(where: { $0.trigger.applies }) {
        (launchOverride.instance, .launchOverride(launchOverride.trigger.reason))
      } else if let preview, ProcessContext.isPreview {
        (preview, .preview)
      } else {
        (instance, .published)
      }
    self.strategy = strategy
    self.location = location
    self.family = family
    // In a test process, the published layer of an injection with a test value builds on the
    // general path, whatever its strategy, so that a live build outside the test worlds is
    // reported.
    self.published = Layer(
      .instance(build), strategy: strategy, location: location, origin: origin,
      buildsOnFastPath: test == nil || !ProcessContext.isTesting)
    self.testLayer = test.map { Layer(.instance($0), strategy: strategy, location: location, origin: .test) }
  }

  /// Notes what a build from `layer` resolved.
  func noteBuilt(by layer: Layer<D>, with dependencies: [BuildDependency]) {
    guard !dependencies.isEmpty else { return }
    builtWith.withLock { $0.note(dependencies, builtBy: layer) }
  }
}

extension Publication: PublishedInjection {
  /// The injection's label in messages: `Injection<Service> (ServicePackage/Services.swift:12)`.
  var label: String { "\(name) (\(location))" }
  /// The injection's name in messages: `Injection<Service>`, or `Injection<ChatRoomStore>[42]`
  /// for a family's member.
  var name: String {
    let name = "\(D.kind.typeName)<\(D.Value.self)>"
    // A key's line breaks escaped, so that a message stays on one line.
    return family.map { "\(name)[\($0.keyDescription.escapingLineBreaks)]" } ?? name
  }
  var valueType: any Any.Type { D.Value.self }
  var kind: InjectionKind { D.kind }
  func dependencies(builtBy layer: ObjectIdentifier?) -> [BuildDependency] {
    builtWith.withLock { $0.dependencies(builtBy: layer ?? ObjectIdentifier(published)) }
  }
}

/// What the process must have been launched with for a launch override to apply.
enum LaunchTrigger: Sendable {
  case argument(String)
  case environment(String)

  /// Whether this process was launched with the trigger.
  var applies: Bool {
    switch self {
    case .argument(let argument): ProcessContext.arguments.contains(argument)
    case .environment(let variable): ProcessContext.isSet(variable)
    }
  }

  /// Why it applies, as telemetry says it.
  var reason: String {
    switch self {
    case .argument(let argument): "launch argument \(argument)"
    case .environment(let variable): "environment variable \(variable)"
    }
  }
}

extension String {
  /// The text with its line breaks written as `\n` and `\r`.
  var escapingLineBreaks: String {
    unicodeScalars.reduce(into: "") { escaped, scalar in
      switch scalar {
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
  }
}
