// Sendable injections (issue 27), measured against the baselines of `SendableBaselines.swift`.

import Inject

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

// MARK: Contention

/// A nonisolated consumer of one of `contended`.
final class ContendedConsumer {
  @SendableInstance var service: any Service
  init(_ injection: SendableInjection<any Service>) { _service = SendableInstance(injection) }
}

/// The lock-protected lazy globals that the baseline of `sendable-contention` reads, one per
/// injection.
let contendedBaselines = (0..<100).map { _ in LockedLazyGlobal() }

/// A nonisolated consumer of one of `contendedBaselines`.
final class ContendedBaselineConsumer {
  let global: LockedLazyGlobal
  lazy var service: any Service = global.service
  init(_ global: LockedLazyGlobal) { self.global = global }
}

/// Prints the median wall time of `tasks` tasks creating consumers of sendable injections.
///
/// Each task, on the concurrent executor (never the main actor), creates 100,000 consumers of
/// 100 sendable `.singleton` injections and reads them once (the first 100 reads of the run
/// build); one task doing its share alone is measured too, and the same for lock-protected lazy
/// globals.
func timeContention(tasks: Int) async {
  let perTask = 100_000
  func run(_ tasks: Int, _ body: @escaping @Sendable (Int) -> Void) async -> Double {
    let clock = ContinuousClock()
    var times: [Duration] = []
    for _ in 0..<5 {
      times.append(
        await clock.measure {
          await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
              group.addTask { @concurrent in body(task) }
            }
          }
        })
    }
    let median = times.sorted()[times.count / 2]
    return Double(median.components.attoseconds) / 1e15 + Double(median.components.seconds) * 1e3
  }
  let injections = (0..<100).map { _ in
    SendableInjection<any Service>(strategy: .singleton, instance: ServiceImplementation())
  }
  let inject: @Sendable (Int) -> Void = { task in
    for iteration in 0..<perTask {
      let consumer = ContendedConsumer(injections[(task + iteration) % injections.count])
      precondition(consumer.service is ServiceImplementation)
    }
  }
  let baseline: @Sendable (Int) -> Void = { task in
    for iteration in 0..<perTask {
      let consumer = ContendedBaselineConsumer(contendedBaselines[(task + iteration) % contendedBaselines.count])
      precondition(consumer.service is ServiceImplementation)
    }
  }
  let (injectOne, injectMany) = (await run(1, inject), await run(tasks, inject))
  let (baselineOne, baselineMany) = (await run(1, baseline), await run(tasks, baseline))
  func format(_ value: Double) -> String { String(Int(value.rounded())) }
  print(
    "\(tasks) tasks x \(perTask) first reads across 100 injections: SendableInjection \(format(injectMany)) ms "
      + "(1 task: \(format(injectOne)) ms, ratio \(String(format: "%.1f", injectMany / injectOne))); "
      + "lock-protected lazy globals \(format(baselineMany)) ms (1 task: \(format(baselineOne)) ms, "
      + "ratio \(String(format: "%.1f", baselineMany / baselineOne))); medians of 5")
}
