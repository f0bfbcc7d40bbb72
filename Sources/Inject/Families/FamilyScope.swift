/// One scope's override of a whole family, of either kind, as the worlds inside the scope see
/// it: for each member that resolves there, a scoped override made from the member's key, the
/// first time, and kept while the scope's worlds live.
///
/// A member's own scoped override wins over its family's, in any world; a family's scope replaces
/// the enclosing scope's override of the same family, or decorates what it gives.
final class FamilyScope: Sendable {
  /// The family overridden.
  let identity: FamilyIdentity
  /// The override, a `FamilyOverride<D>` of the family's kind.
  private let override: any AnyObject & Sendable
  /// For a decorator, the enclosing scope's override of the same family, which it decorates.
  private let enclosing: FamilyScope?
  /// The members' scoped overrides made so far, by member serial.
  private let made = Locked<[UInt64: ScopedOverride]>([:])

  /// A scope that overrides the family `identity` with `override`, inside `world`.
  init<D: DoorTypes>(_ identity: FamilyIdentity, with override: FamilyOverride<D>, decorating: Bool, in world: World?) {
    self.identity = identity
    self.override = override
    self.enclosing = decorating ? world?.familyScope(of: identity) : nil
  }

  /// The scoped override of the member `injection` that `link` names.
  func override<D: DoorTypes>(of injection: D.Injection, _ link: FamilyLink, _: D.Type) -> ScopedOverride {
    if let made = made.withLock({ $0[link.serial] }) {
      return made
    }
    // Only `init` stores it, a `FamilyOverride<D>` of the family's kind.
    let layer = unsafeDowncast(override, to: FamilyOverride<D>.self).makeLayer(for: link)
    let beneath = layer.decorates ? enclosing?.override(of: injection, link, D.self) : nil
    let scoped = ScopedOverride(injection, with: layer, beneath: beneath)
    return made.withLock { made in
      if let existing = made[link.serial] {
        return existing
      }
      made[link.serial] = scoped
      return scoped
    }
  }
}
