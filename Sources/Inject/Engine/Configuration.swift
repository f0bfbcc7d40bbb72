/// An injection's configuration as one resolution reads it in one world: the scoped overrides
/// that apply there, the test's stack, the global stack and the published layers.
///
/// A family's member has its family's overrides beneath all of its own: its family's scoped
/// overrides, its family's overrides in the test, then its family's on the global stack, above
/// the published layers. So any override of one key wins over any of its family.
///
/// The stacks are read once, when a resolution starts at an injection, so that what other
/// threads push or pop meanwhile changes nothing of it.
struct Configuration<D: Door> {
  let injection: D.Injection
  /// The world (`nil`: the global world).
  let world: World?
  let publication: Publication<D>
  /// The global stack, bottom first, if it holds any override: `Layer<D>`s, erased, so that this
  /// code, which is not specialized for `D`, handles the array with no generic metadata.
  ///
  /// For a family's member, its family's overrides (global, the test's, the scopes') first.
  let globals: [any AnyObject & Sendable]?
  /// The test's stack of the injection, bottom first, in a test world that pushed any:
  /// `Layer<D>`s, erased.
  let tested: [any AnyObject & Sendable]?

  /// The configuration of `injection`, published with `publication`, in `world`.
  @inline(__always)
  init(_ injection: D.Injection, _ publication: Publication<D>, in world: World?) {
    self.injection = injection
    self.world = world
    self.publication = publication
    // Each stack is read once, under its guard: another thread's push or pop falls before or
    // after the read.
    let globals = D.globalSnapshot(of: injection)
    if let link = publication.family, let world {
      self.globals = Self.withFamilyLayers(globals, of: link, in: world)
    } else {
      self.globals = globals?.layers
    }
    self.tested = world?.testOverrides.flatMap { D.testLayers(of: injection, in: $0) }
  }

  /// The global stack `globals` of a family's member, with what its family's overrides in
  /// `world` (the test's, the scopes') give it put above its family's global overrides.
  private static func withFamilyLayers(
    _ globals: (layers: [any AnyObject & Sendable], familyDepth: Int)?, of link: FamilyLink, in world: World
  ) -> [any AnyObject & Sendable]? {
    let inWorld =
      (world.testOverrides?.familyLayers(of: link, D.self) ?? [])
      + (world.familyScope(of: link.identity)?.layers(for: link, D.self) ?? [])
    guard let globals else { return inWorld.isEmpty ? nil : inWorld }
    guard !inWorld.isEmpty else { return globals.layers }
    var layers = globals.layers
    layers.insert(contentsOf: inWorld, at: globals.familyDepth)
    return layers
  }

  /// The configuration of `injection` in `world`.
  @inline(__always)
  init(_ injection: D.Injection, in world: World?) {
    self.init(injection, D.publication(of: injection), in: world)
  }

  /// The top of the configuration: the world's scoped override of the injection, or the top of
  /// its test's stack, or the top of the global stack.
  @inline(__always)
  var top: Position {
    if let scoped = world?.override(of: injection) {
      return .scoped(scoped)
    }
    return topBeneathScopes
  }

  /// The top of the configuration beneath the scoped overrides: the test's stack, or the global
  /// stack.
  @inline(__always)
  var topBeneathScopes: Position {
    if let tested {
      return .tested(tested.count)
    }
    return .global(globals?.count ?? 0)
  }

  /// The layer at `position`: a test world resolves the test value, if there is one, instead of
  /// the published layer.
  @inline(__always)
  func layer(at position: Position) -> Layer<D> {
    switch position {
    case .scoped(let scoped): scoped.layer(as: D.self)
    // The stacks hold only `Layer<D>`s of the injection.
    case .tested(let depth): Layer<D>.unerased(tested.unsafelyUnwrapped[depth - 1])
    case .global(0): world?.isTest == true ? publication.testLayer ?? publication.published : publication.published
    case .global(let depth): Layer<D>.unerased(globals.unsafelyUnwrapped[depth - 1])
    }
  }

  /// The position beneath `position`: the override that an enclosing scope declared, or the
  /// next layer of the test's stack or of the global stack.
  ///
  /// Only decorators ask, and the published layer is never one.
  func beneath(_ position: Position) -> Position {
    switch position {
    case .scoped(let scoped): scoped.beneath.map(Position.scoped) ?? topBeneathScopes
    case .tested(let depth): depth > 1 ? .tested(depth - 1) : .global(globals?.count ?? 0)
    case .global(let depth): .global(depth - 1)
    }
  }

  /// The injection, resolved for a consumer at `location`, as the build in progress notes it.
  func dependency(at location: CodeLocation) -> BuildDependency {
    BuildDependency(injection, publication, at: location)
  }

  /// The injection that this configuration resolves through, if its top (with the scoped
  /// overrides, if `seesScopes`) delegates, past any decorators.
  func delegate(seesScopes: Bool) -> D.Injection? {
    var position = seesScopes ? top : topBeneathScopes
    while true {
      let layer = layer(at: position)
      guard layer.decorates else { return layer.delegate }
      position = beneath(position)
    }
  }
}

/// Where a layer sits in an injection's configuration: a scope's override, a depth of the test's
/// stack (1 is the first pushed), or a depth of the global stack (0 is the published layer).
///
/// Not generic, so that the general path handles positions with no generic-metadata lookup.
enum Position {
  case scoped(ScopedOverride)
  case tested(Int)
  case global(Int)
}
