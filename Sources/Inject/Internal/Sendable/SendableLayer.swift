/// One entry of a sendable injection's configuration: where its instances come from, and with
/// which strategy; the sendable counterpart of ``Layer``.
///
/// What the layer built for the global world is kept in its ``slot``, which any thread reads.
@usableFromInline
final class SendableLayer<T: Sendable>: Sendable {
  enum Source: Sendable {
    /// Builds a new instance: the published factory or a plain replacement.
    case instance(@Sendable () -> T)
    /// Decorates a new instance made by the layer beneath.
    case transform(@Sendable (T) -> T)
    /// Delegates to another injection, with its strategy, storage and overrides.
    case injection(SendableInjection<T>)
  }

  let source: Source
  /// The strategy, or `nil` for a layer that delegates to another injection.
  let strategy: Strategy?
  /// Whether the strategy is `.onDemand`.
  let isOnDemand: Bool
  /// Where the layer was published or pushed.
  let location: CodeLocation
  /// Which layer of the configuration this is, as telemetry names it.
  let origin: InjectionEvent.Layer
  /// The rollback log's epoch at which the layer was pushed, for an override.
  let pushEpoch: UInt64
  /// The main-actor rollback log's epoch at which the layer was pushed, for an override: set on
  /// the main actor by ``MainActorRollback``.
  let mainActorEpoch = Locked<UInt64>(0)
  /// The factory of an `.onDemand` layer that builds, which the fast path of resolution calls
  /// directly.
  @usableFromInline
  let onDemandFactory: (@Sendable () -> T)?
  /// What the layer built for the global world.
  @usableFromInline
  let slot = SendableSlot<T>()

  /// A layer; `strategy` is `nil` for one that delegates to another injection.
  ///
  /// Stops the program for a `.session` strategy, which sendable injections do not have yet:
  /// rather than keep the instance past the session's end.
  init(
    _ source: Source, strategy: Strategy?, location: CodeLocation, origin: InjectionEvent.Layer, pushEpoch: UInt64 = 0
  ) {
    if let session = strategy?.session {
      fatalError(
        "SendableInjection<\(T.self)> at \(location) uses .session(\(session.name)), which sendable injections do not "
          + "support yet. To fix this, use an Injection for what belongs to a session, or .singleton and reset it "
          + "yourself when the session ends.")
    }
    self.source = source
    self.strategy = strategy
    self.isOnDemand = strategy?.isOnDemand ?? false
    self.location = location
    self.origin = origin
    self.pushEpoch = pushEpoch
    self.onDemandFactory = if isOnDemand, case .instance(let build) = source { build } else { nil }
  }
}
