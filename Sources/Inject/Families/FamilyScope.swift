/// One scope's override of a whole family, of either kind, as the worlds inside the scope see
/// it: for each member that resolves there, a layer made from its key the first time, which the
/// member keeps.
///
/// A family's scope replaces the enclosing scope's override of the same family, or decorates
/// what it gives. Its layers lie beneath every override of the member's own
/// (``Configuration``).
final class FamilyScope: Sendable {
  /// The family overridden.
  let identity: FamilyIdentity
  /// The override, a `FamilyOverride<D>` of the family's kind.
  private let override: any AnyObject & Sendable
  /// For a decorator, the enclosing scope's override of the same family, which it decorates.
  private let enclosing: FamilyScope?
  /// Whether it overrides a main-actor family: what it holds is released on the main actor.
  let isMainActor: Bool

  /// A scope that overrides the family `identity` with `override`, inside `world`.
  init<D: DoorTypes>(_ identity: FamilyIdentity, with override: FamilyOverride<D>, decorating: Bool, in world: World?) {
    self.identity = identity
    self.override = override
    self.enclosing = decorating ? world?.familyScope(of: identity) : nil
    self.isMainActor = D.kind == .mainActor
  }

  /// The layers that the scopes give the member `link` names, bottom first: the decorated
  /// scope's, then this one's.
  func layers<D: DoorTypes>(for link: FamilyLink, _: D.Type) -> [any AnyObject & Sendable] {
    // Only `init` stores it, a `FamilyOverride<D>` of the family's kind.
    let layer = FamilyOverride<D>.unerased(override).layer(for: link)
    return (enclosing?.layers(for: link, D.self) ?? []) + [layer]
  }
}
