/// One override of a whole family, of either kind: for each member, a layer made from the
/// member's key when it is first needed.
///
/// The global stack of a family puts a new layer in each member's own global stack, beneath the
/// member's own overrides (``FamilyCore``); a test's stack (``TestOverrides``) and a scope
/// (``FamilyScope``) make it when a member first resolves there, and the member keeps it
/// (``FamilyLink``) while this override lives.
final class FamilyOverride<D: DoorTypes>: Sendable {
  /// Where the override was given, and at which epoch of its rollback log.
  let location: CodeLocation
  let pushEpoch: UInt64
  /// What a strict test notes as the override given: one for every member's layer.
  let token = FamilyOverrideToken()
  private let origin: InjectionEvent.Layer
  private let strategy: Strategy
  /// The layer's source for a key.
  private let source: @Sendable (any Hashable & Sendable) -> Layer<D>.Source
  /// The members that ``layer(for:)`` made a layer for, by their links, held weakly: what a test's
  /// rollback of this override makes the test's worlds forget, and what its release tells to drop
  /// the layers.
  private let madeFor = Locked(MadeFor())

  private struct MadeFor: Sendable {
    var links: [WeakLink] = []
    /// When `links` is pruned, which forgets the entries of released members.
    var pruning = PruneSchedule()
    /// Whether a test's rollback popped the override (``popped()``): a layer made after, for a
    /// resolution that read the stack before, is born popped.
    var isPopped = false
  }

  private struct WeakLink: Sendable {
    weak var link: FamilyLink?
  }

  init(
    strategy: Strategy, location: CodeLocation, origin: InjectionEvent.Layer, pushEpoch: UInt64,
    source: @escaping @Sendable (any Hashable & Sendable) -> Layer<D>.Source
  ) {
    self.strategy = strategy
    self.location = location
    self.origin = origin
    self.pushEpoch = pushEpoch
    self.source = source
  }

  /// A new layer for the member `link` names, which nothing keeps here.
  func makeLayer(for link: FamilyLink) -> Layer<D> {
    Layer(
      source(link.key), strategy: strategy, location: location, origin: origin, pushEpoch: pushEpoch,
      givenAs: token)
  }

  /// The layer of the member that `link` names: made the first time, then kept by the member.
  func layer(for link: FamilyLink) -> Layer<D> {
    // Only this override makes its layers: `Layer<D>`s.
    if let layer = link.layer(madeBy: self) {
      return Layer<D>.unerased(layer)
    }
    let new = makeLayer(for: link)
    // Kept by the member and listed here under one lock, which `popped()` takes: the pop finds
    // the layer, or the layer learns of the pop.
    let (layer, replaced) = madeFor.withLock { madeFor in
      if madeFor.isPopped {
        // As the pop would have marked it, before another resolution can find it in the link:
        // a world that makes its slot forgets it at once.
        World.notePopped([new], D.self)
      }
      let (layer, replaced) = link.layer(madeBy: self, orKeep: new)
      if layer === new {
        madeFor.links.append(WeakLink(link: link))
        if madeFor.pruning.isDue(madeFor.links.count) {
          madeFor.links.removeAll { $0.link == nil }
          madeFor.pruning.pruned(leaving: madeFor.links.count)
        }
      }
      return (Layer<D>.unerased(layer), replaced)
    }
    // Released once no lock is held: its closures are the user's.
    withExtendedLifetime(replaced) {}
    return layer
  }

  /// Marks the override popped from a test's stack, and returns the layers that ``layer(for:)``
  /// made whose members are alive: for the pop to mark and forget, while every layer made after
  /// is born popped.
  func popped() -> [Layer<D>] {
    madeFor.withLock { madeFor in
      madeFor.isPopped = true
      // Only this override makes its layers: `Layer<D>`s.
      return madeFor.links.compactMap { $0.link?.layer(madeBy: self).map { Layer<D>.unerased($0) } }
    }
  }

  /// The members' links that ``layer(for:)`` made a layer for that are alive.
  private var links: [FamilyLink] { madeFor.withLock { $0.links.compactMap(\.link) } }

  deinit {
    for link in links {
      link.dropLayer(madeBy: ObjectIdentifier(self))
    }
  }
}

/// Read back from a test's family stacks and a family's scopes, which hold a family's overrides
/// type-erased, for either kind of family. Safe: each is keyed by the family, and the family's
/// push and scopes store there only the `FamilyOverride<D>`s of its own door `D`.
extension FamilyOverride: Unerasable {}

/// What a strict test notes as one family override given, however many members' layers it makes.
final class FamilyOverrideToken: Sendable {}
