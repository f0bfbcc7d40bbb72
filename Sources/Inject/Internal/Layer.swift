/// One entry of an injection's configuration: where its instances come from, and with which
/// strategy.
///
/// The published configuration is the bottom layer; every global override pushes another, and
/// every scoped override is a layer of its scope's ``World``. A layer holds no other layer: a
/// decorator asks whichever layer is beneath it where it resolves, so releasing any number of
/// layers is flat.
///
/// What a layer built is kept in an ``InstanceSlot`` of the world that resolved it; the global
/// world's slot sits here, beside the configuration, so that the fast path reaches it in one
/// load.
@MainActor
@usableFromInline
final class Layer<T> {
  enum Source {
    /// Builds a new instance: the published factory or a plain replacement.
    case instance(@MainActor () -> T)
    /// Decorates a new instance made by the layer beneath.
    case transform(@MainActor (T) -> T)
    /// Delegates to another injection, with its strategy, storage and overrides.
    case injection(Injection<T>)
  }

  let source: Source
  /// Where the layer was published or pushed.
  let location: CodeLocation
  /// Which layer of the configuration this is, as telemetry names it.
  let origin: InjectionEvent.Layer
  /// The strategy, or `nil` for a layer that delegates to another injection.
  @usableFromInline
  let strategy: Strategy?
  /// The factory of an `.instance` source, which the fast path of resolution calls directly.
  @usableFromInline
  let factory: (@MainActor () -> T)?
  /// Whether the strategy is `.onDemand`: read where a copy of the strategy, an enum with a
  /// payload, would cost more than the check.
  let isOnDemand: Bool
  /// The global override epoch at which the layer was pushed, for a global override; see
  /// ``RollbackLog``.
  let pushEpoch: UInt64
  /// What the layer built for the global world.
  // NB: `nonisolated(unsafe)` only because the `nonisolated` initializer must store this
  // non-Sendable slot. It is safe: the initializer creates the slot and is its only user until
  // it returns, and every other access is from the main actor (the slot is not `Sendable`).
  @usableFromInline
  nonisolated(unsafe) let slot = InstanceSlot<T>.make()

  /// A layer; `strategy` is `nil` for one that delegates to another injection.
  ///
  /// With `buildsOnFastPath` false, the fast path does not call its factory: it builds on the
  /// general path.
  nonisolated init(
    _ source: Source, strategy: Strategy?, location: CodeLocation, origin: InjectionEvent.Layer, pushEpoch: UInt64 = 0,
    buildsOnFastPath: Bool = true
  ) {
    self.source = source
    self.location = location
    self.origin = origin
    self.strategy = strategy
    self.isOnDemand = strategy?.isOnDemand ?? false
    self.pushEpoch = pushEpoch
    self.factory = if buildsOnFastPath, case .instance(let instance) = source { instance } else { nil }
  }

  /// Whether the global world holds an instance that this layer built.
  var holdsInstance: Bool { slot.holdsInstance }
}
