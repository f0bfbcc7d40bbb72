/// One scope's override of one injection, as the worlds inside the scope see it.
///
/// A world keeps the overrides that apply inside it, not the worlds that declared them: a
/// nested world copies its enclosing world's list, so that an enclosing world, and the
/// instances it stored, are released when its own scope has ended, whatever nested worlds live
/// on. Only a decorator keeps the override beneath it (it decorates what that one builds), so a
/// chain of scopes that each replace the same injection holds one override, not one per scope.
@MainActor
final class ScopedOverride {
  /// The overridden `Injection<T>`, held strongly, so that no other injection allocated at the
  /// same address can match it while the override applies.
  let injection: AnyObject
  /// The `Layer<T>` that `injection` resolves from where the override applies.
  let layer: AnyObject
  /// For a decorator, the enclosing scopes' override of the same injection that it decorates;
  /// `nil` when the global stack is beneath it, and for any other layer.
  let beneath: ScopedOverride?

  /// An override of `injection` with `layer`, above `beneath`, the override it replaces.
  init<T>(_ injection: Injection<T>, with layer: Layer<T>, above beneath: ScopedOverride?) {
    self.injection = injection
    self.layer = layer
    self.beneath = if case .transform = layer.source { beneath } else { nil }
  }

  /// The layer, a `Layer<T>` of the injection it overrides.
  func layer<T>(as type: Injection<T>.Type) -> Layer<T> {
    // Only `init` stores it, from the `Injection<T>` it overrides.
    unsafeDowncast(layer, to: Layer<T>.self)
  }
}

extension [ScopedOverride] {
  /// The override of `injection`, if there is one.
  ///
  /// A walk over the overrides that apply, one per injection overridden, however deep the
  /// scopes that declared them are nested.
  @MainActor
  func first(overriding injection: AnyObject) -> ScopedOverride? {
    for scoped in self where scoped.injection === injection {
      return scoped
    }
    return nil
  }

  /// These overrides with `scoped` in place of the one it replaces.
  @MainActor
  func replacing(with scoped: ScopedOverride) -> [ScopedOverride] {
    filter { $0.injection !== scoped.injection } + [scoped]
  }
}
