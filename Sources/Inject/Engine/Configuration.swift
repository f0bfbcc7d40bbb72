/// An injection's configuration as one resolution reads it in one world: the scoped overrides
/// that apply there, the test's stack, the global stack and the published layers.
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
    self.globals = D.globalLayers(of: injection)
    self.tested = world?.testOverrides.flatMap { test in
      let own = D.testLayers(of: injection, in: test)
      // A family's overrides in the test lie beneath the member's own.
      guard let link = publication.family else { return own }
      return test.familyLayers(of: link, D.self).map { $0 + (own ?? []) } ?? own
    }
  }

  /// The configuration of `injection` in `world`.
  @inline(__always)
  init(_ injection: D.Injection, in world: World?) {
    self.init(injection, D.publication(of: injection), in: world)
  }

  /// The top of the configuration: the world's scoped override of the injection (its own, or
  /// else its family's), or the top of its test's stack, or the top of the global stack.
  @inline(__always)
  var top: Position {
    if let scoped = scopedOverride {
      return .scoped(scoped)
    }
    return topBeneathScopes
  }

  /// The world's scoped override of the injection, if any: its own, or else its family's.
  @inline(__always)
  var scopedOverride: ScopedOverride? {
    guard let world, world.hasScopedOverrides else { return nil }
    if let scoped = world.override(of: injection) {
      return scoped
    }
    guard let link = publication.family else { return nil }
    return world.familyOverride(of: injection, link, D.self)
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
    case .tested(let depth): unsafeDowncast(tested.unsafelyUnwrapped[depth - 1], to: Layer<D>.self)
    case .global(0): world?.isTest == true ? publication.testLayer ?? publication.published : publication.published
    case .global(let depth): unsafeDowncast(globals.unsafelyUnwrapped[depth - 1], to: Layer<D>.self)
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
    BuildDependency(injection: ObjectIdentifier(injection), publication: publication, location: location)
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
