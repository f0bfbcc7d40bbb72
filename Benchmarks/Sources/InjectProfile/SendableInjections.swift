// Sendable injections (issue 27), measured against the baselines of `SendableBaselines.swift`.

@_spi(SendableInjections) import Inject

let sendableSingleton = SendableInjection<any Service>(strategy: .singleton, instance: ServiceImplementation())
let sendableShared = SendableInjection<any Service>(strategy: .shared, instance: ServiceImplementation())
let sendableOnDemand = SendableInjection<any Service>(strategy: .onDemand, instance: ServiceImplementation())

/// An actor that consumes a sendable injection, on the main actor's executor as `LazyActor`.
actor SendableActor {
  @SendableInstance(sendableSingleton) var service

  nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
}

/// The measured reads of a resolved `@SendableInstance` in an actor.
@_silgen_name("inject_profile_sendable_actor_reads") @inline(never)
func sendableActorReads(_ actor: isolated SendableActor) {
  for _ in 0..<iterations {
    escapedService = actor.service
  }
}

/// Nonisolated consumers of the sendable injections.
final class SendableSingletonConsumer { @SendableInstance(sendableSingleton) var service }
final class SendableSharedConsumer { @SendableInstance(sendableShared) var service }
final class SendableOnDemandConsumer { @SendableInstance(sendableOnDemand) var service }

/// Where the actor's reads escape to, so that none is optimized away.
// NB: `nonisolated(unsafe)`: only `actorReads` and `sendableActorReads` write it, on the main
// thread (their actors run on the main actor's executor), and nothing reads it.
nonisolated(unsafe) var escapedService: (any Service)?
