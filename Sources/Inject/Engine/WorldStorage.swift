/// What a world stores: the slot of each layer resolved there, for each kind of injection under
/// its own guard (the main actor's, or a lock), and the session generations begun there.
///
/// The worlds of one configuration share it while any of them lives (a scope's, a test's, one
/// inherited by a task, one made for a consumer that reads late). When the last of them is
/// released it ends: its configuration forgets it, and a consumer that reads later resolves in a
/// storage made again (``WorldConfiguration/openStorage()``), which finds, through the
/// configuration, what this one kept that is alive elsewhere. No consumer keeps it alive.
final class WorldStorage: Sendable {
  /// Whether it was made again for consumers that read after the first storage of its
  /// configuration ended: what it builds, it first looks for among what ended storages left.
  let isMadeAgain: Bool
  /// The main-actor injections' part.
  // NB: `nonisolated(unsafe)` only so that this `Sendable` storage can hold the part that the
  // main actor guards. It is safe: it is read and written only through `World.mainActorPart(of:)`,
  // `World.mainActorSlot` and `World.mainActorResolved`, which are main-actor-isolated, and by
  // `takeMainActorPart()`, which runs when the last world of this storage is released and its
  // configuration has forgotten it, so that no code can reach the part through a world any more.
  // A cell, so that resolution reads it with no dynamic exclusivity check.
  nonisolated(unsafe) let mainActorPart = Cell.make(WorldPart())
  /// The sendable injections' part.
  let sendablePart = Locked(WorldPart())
  /// The generations of the sessions resolved here, by either kind.
  let sessions = Locked(SessionTable())

  init(isMadeAgain: Bool) {
    self.isMadeAgain = isMadeAgain
  }

  /// Takes the main-actor part out, as the last world of the storage is released; `nil` if no
  /// main-actor resolution touched it, so that a world made and ended on another thread leaves
  /// the main actor no job, however busy it is.
  ///
  /// The caller releases it on the main actor, where its instances may have been built. What the
  /// sendable part holds is released with this object.
  ///
  /// Moved out, not copied: were it copied, this object would drop its own reference after the
  /// caller dropped its own, which may be off the main actor.
  func takeMainActorPart() -> WorldPart? {
    var part = WorldPart()
    mainActorPart.access { swap(&part, &$0) }
    return part.isEmpty ? nil : part
  }

  /// Takes the sendable part out, as the last world of the storage is released, for the caller
  /// to release at once: so that the families whose members stored here find its slots gone.
  func takeSendablePart() -> WorldPart {
    var part = WorldPart()
    sendablePart.withLock { swap(&part, &$0) }
    return part
  }

  /// The objects that the sendable part keeps for new consumers, with their layers' serials.
  func sendableObjects() -> [(serial: UInt64, instance: AnyObject)] {
    sendablePart.withLock { part in
      part.slots.values.compactMap { entry in entry.slot.keptObjectUnderLock().map { (entry.serial, $0) } }
    }
  }

  /// The objects that the slots of `part`, a main-actor part, keep for new consumers, with their
  /// layers' serials.
  @MainActor
  static func objects(inMainActorPart part: WorldPart) -> [(serial: UInt64, instance: AnyObject)] {
    part.slots.values.compactMap { entry in entry.slot.keptObjectOnMainActor.map { (entry.serial, $0) } }
  }
}
