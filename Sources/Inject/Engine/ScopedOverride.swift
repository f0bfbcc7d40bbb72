/// One scope's override of one injection, of either kind, as the worlds inside the scope see it.
///
/// A world keeps the overrides that apply inside it, not the worlds that declared them: a
/// nested world copies its enclosing world's list, so that an enclosing world, and the
/// instances it stored, are released when its own scope has ended, whatever nested worlds live
/// on. Only a decorator keeps the override beneath it (it decorates what that one builds), so a
/// chain of scopes that each replace the same injection holds one override, not one per scope.
final class ScopedOverride: Sendable {
  /// The overridden injection, held strongly, so that no other injection allocated at the same
  /// address can match it while the override applies.
  let injection: any AnyObject & Sendable
  /// The `Layer<D>` that `injection` resolves from where the override applies.
  let layer: any AnyObject & Sendable
  /// For a decorator, the enclosing scopes' override of the same injection that it decorates;
  /// `nil` when the stacks are beneath it, and for any other layer.
  let beneath: ScopedOverride?
  /// Whether it overrides a main-actor injection: what it holds is released on the main actor.
  let isMainActor: Bool

  /// An override of `injection` with `layer`, above the override that applies around it, if
  /// any.
  init<D: DoorTypes>(_ injection: D.Injection, with layer: Layer<D>, in world: World?) {
    self.injection = injection
    self.layer = layer
    self.beneath = layer.decorates ? world?.override(of: injection) : nil
    self.isMainActor = D.kind == .mainActor
  }

  /// The layer, a `Layer<D>` of the injection it overrides.
  func layer<D: DoorTypes>(as _: D.Type) -> Layer<D> {
    // Only `init` stores it, from the `D.Injection` it overrides.
    Layer<D>.unerased(layer)
  }
}

extension [ScopedOverride] {
  /// The override of `injection`, if there is one.
  ///
  /// A walk over the overrides that apply, one per injection overridden, however deep the
  /// scopes that declared them are nested.
  func first(overriding injection: AnyObject) -> ScopedOverride? {
    for scoped in self where scoped.injection === injection {
      return scoped
    }
    return nil
  }

  /// These overrides with `scoped` in place of the one it replaces.
  func replacing(with scoped: ScopedOverride) -> [ScopedOverride] {
    filter { $0.injection !== scoped.injection } + [scoped]
  }
}
