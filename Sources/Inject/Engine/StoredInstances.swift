/// One slot that stored an instance, listed once in its world's part (``WorldPart/registered``),
/// so that ``InjectionGraph/capture(roots:followingReferences:)`` can start from every instance
/// a world keeps.
///
/// Resolution lists a slot from the engine's general path, the first time the slot stores:
/// every first store goes through it, so the inlined fast path pays nothing, and a slot that
/// stores again is not listed again.
///
/// No entry holds its injection: it names the injection by identity and keeps its publication
/// (what the graph shows of it). It holds its slot strongly, as the layer or the world that owns
/// the slot does, and leaves with it: when a global layer is popped or released with its
/// injection, ``World/forget(_:_:)`` removes the layer's entries from every world, while the
/// layer is still alive.
struct StoredEntry: Sendable {
  /// The slot.
  let slot: any EngineSlot
  /// The layer that owns the slot, by identity.
  let layer: ObjectIdentifier
  /// The injection, by identity.
  let injection: ObjectIdentifier
  /// What the injection was published with.
  let publication: any PublishedInjection
  /// The strategy of the layer that built the instance; not the injection's, which an override
  /// may have changed.
  let strategy: Strategy
  /// Which layer built the instance.
  let origin: InjectionEvent.Layer
}
