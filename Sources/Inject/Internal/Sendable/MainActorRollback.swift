/// Makes a sendable override's rollback exact for the main-actor injections that depend on it:
/// a main-actor `.singleton` view model built while a sendable client was overridden is built
/// anew after the rollback, as it is for a main-actor override.
///
/// A sendable push advances the main-actor rollback log of the same stack (the global world's,
/// or the test's) as a main-actor push does, and its rollback pops it. The main-actor log is
/// the main actor's: the change is made now if the caller runs there, else in a main-actor task
/// enqueued at once, before anything the caller enqueues afterwards (a `MainActor.run`, a
/// main-actor task): the main actor runs its jobs in the order they were enqueued.
enum MainActorRollback {
  /// Notes on the main actor that `layer` was pushed on the stack of `tested` (`nil`: the
  /// global stack).
  static func notePush<T>(of layer: SendableLayer<T>, in tested: TestOverrides?) {
    // Only the epoch's box: the task must not keep the layer, and what it holds, alive.
    let epoch = layer.mainActorEpoch
    MainActorHop.run {
      let log = tested?.log ?? RollbackLog.global
      epoch.withLock { $0 = log.push() }
    }
  }

  /// Notes on the main actor that `layers`, popped from the stack of `tested` (`nil`: the
  /// global stack), are gone, and releases what the main-actor worlds stored since the first of
  /// them was pushed.
  static func notePop<T>(of layers: [SendableLayer<T>], in tested: TestOverrides?) {
    guard let epoch = layers.first?.mainActorEpoch else { return }
    let count = layers.count
    MainActorHop.run {
      let log = tested?.log ?? RollbackLog.global
      let emptied = log.pop(count, pushedAt: epoch.withLock { $0 })
      withExtendedLifetime(emptied) {}
    }
  }
}
