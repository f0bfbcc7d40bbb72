// Creates consumers and reads them once, per strategy and for the hand-written baselines, so that
// `Benchmarks/profile` can count the instructions under callgrind: exact and repeatable where the
// wall-clock times of `Benchmarks/run` move with the machine's load.
//
//   InjectProfile <scenario>    runs one scenario `iterations` times inside `inject_profile_run`
//   InjectProfile graph-capture prints the median time of InjectionGraph.capture over 10,000
//                               consumers, in milliseconds (a wall-clock time, not under valgrind)
//   InjectProfile session-end   prints the median time of ending a session with 1,000 instances
//                               held by 10,000 consumers, and of reporting them as survivors
//   InjectProfile sendable-contention
//                               prints the median time of 16 tasks creating and reading
//                               consumers of 100 sendable injections, against one task's

import Inject

protocol Service: AnyObject, Sendable {}
final class ServiceImplementation: Service {}

let iterations = 100_000

// MARK: Hand-written baselines, as in the benchmarks

let globalService: any Service = ServiceImplementation()
weak var weakGlobalService: (any Service)?

@MainActor final class LazyGlobal {
  lazy var service: any Service = globalService
}

@MainActor final class LazyNew {
  lazy var service: any Service = ServiceImplementation()
}

@MainActor final class LazyWeak {
  lazy var service: any Service = {
    if let service = weakGlobalService {
      return service
    }
    let service = ServiceImplementation()
    weakGlobalService = service
    return service
  }()
}

// MARK: Inject

let singleton = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())
let shared = Injection<any Service>(strategy: .shared, instance: ServiceImplementation())
let onDemand = Injection<any Service>(strategy: .onDemand, instance: ServiceImplementation())

let contextDefaults = Injection<any Service>(
  strategy: .singleton, instance: ServiceImplementation(), preview: ServiceImplementation(),
  test: ServiceImplementation())

/// An injection that only the nested scopes of `singleton-world-depth-1000` override.
let unrelated = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())

/// The injections that the nested scopes of `singleton-world-distinct-1000` override, one each.
let distinct = (0..<1_000).map { _ in Injection<any Service>(strategy: .singleton, instance: ServiceImplementation()) }

let session = InjectionSession("profile")
let sessionInjection = Injection<any Service>(strategy: .session(session), instance: ServiceImplementation())

final class SingletonConsumer { @Instance(singleton) var service }
final class SessionConsumer { @Instance(sessionInjection) var service }
final class ContextDefaultsConsumer { @Instance(contextDefaults) var service }

/// A telemetry that drops every event.
struct NoTelemetry: InjectionTelemetry {
  func record(_ event: InjectionEvent) {}
}
final class SharedConsumer { @Instance(shared) var service }
final class OnDemandConsumer { @Instance(onDemand) var service }

// MARK: Running

/// Where every consumer and instance escapes to, so that none is promoted to the stack.
var escaped: [AnyObject?] = [nil, nil]

@MainActor @inline(__always)
func repeatCreatingAndReading<Consumer: AnyObject>(_ make: () -> Consumer, _ read: (Consumer) -> any Service) {
  for _ in 0..<iterations {
    let consumer = make()
    escaped[0] = read(consumer)
    escaped[1] = consumer
  }
}

/// A task that keeps the world it was created in alive.
var escapedTask: Task<Void, Never>?

/// Runs `body` inside `depth` nested scopes, each overriding `unrelated`.
@MainActor
func inNestedScopes(_ depth: Int, _ body: () -> Void) {
  guard depth > 0 else { return body() }
  unrelated.withOverride(ServiceImplementation()) { inNestedScopes(depth - 1, body) }
}

/// Runs `body` inside nested scopes, each overriding the next of `injections`.
@MainActor
func inNestedScopes(overriding injections: ArraySlice<Injection<any Service>>, _ body: () -> Void) {
  guard let injection = injections.first else { return body() }
  injection.withOverride(ServiceImplementation()) { inNestedScopes(overriding: injections.dropFirst(), body) }
}

/// The measured code: `Benchmarks/profile` counts the instructions inside this function only.
@_silgen_name("inject_profile_run") @inline(never) @MainActor
func run(_ scenario: String) {
  switch scenario {
  case "lazy-global": repeatCreatingAndReading(LazyGlobal.init, { $0.service })
  case "lazy-new": repeatCreatingAndReading(LazyNew.init, { $0.service })
  case "lazy-weak": repeatCreatingAndReading(LazyWeak.init, { $0.service })
  case "singleton": repeatCreatingAndReading(SingletonConsumer.init, { $0.service })
  case "shared": repeatCreatingAndReading(SharedConsumer.init, { $0.service })
  case "on-demand": repeatCreatingAndReading(OnDemandConsumer.init, { $0.service })
  case "singleton-defaults": repeatCreatingAndReading(ContextDefaultsConsumer.init, { $0.service })
  case "session": repeatCreatingAndReading(SessionConsumer.init, { $0.service })
  case "singleton-world":
    withIsolatedInjections { repeatCreatingAndReading(SingletonConsumer.init, { $0.service }) }
  case "on-demand-world":
    withIsolatedInjections { repeatCreatingAndReading(OnDemandConsumer.init, { $0.service }) }
  case "singleton-world-depth-1000":
    inNestedScopes(1_000) { repeatCreatingAndReading(SingletonConsumer.init, { $0.service }) }
  case "singleton-world-distinct-1000":
    inNestedScopes(overriding: distinct[...]) { repeatCreatingAndReading(SingletonConsumer.init, { $0.service }) }
  case "singleton-world-alive":
    // A task created in a world keeps it alive; it cannot run before this function returns.
    withIsolatedInjections { escapedTask = Task { @MainActor in } }
    repeatCreatingAndReading(SingletonConsumer.init, { $0.service })
  case "singleton-telemetry":
    installTelemetry(NoTelemetry())
    repeatCreatingAndReading(SingletonConsumer.init, { $0.service })
  case "locked-lazy-global": repeatCreatingAndReading(LockedLazyConsumer.init, { $0.service })
  case "factory-style": repeatCreatingAndReading(FactoryStyleConsumer.init, { $0.service })
  case "dependencies-style": repeatCreatingAndReading(DependenciesConsumer.init, { $0.service })
  default: fatalError("Unknown scenario \(scenario).")
  }
}

/// The measured code of the sendable injections' scenarios, apart from `inject_profile_run` so
/// that adding them changes nothing of how the compiler optimizes the others.
@_silgen_name("inject_profile_run_sendable") @inline(never) @MainActor
func runSendable(_ scenario: String) {
  switch scenario {
  case "sendable-singleton": repeatCreatingAndReading(SendableSingletonConsumer.init, { $0.service })
  case "sendable-shared": repeatCreatingAndReading(SendableSharedConsumer.init, { $0.service })
  case "sendable-on-demand": repeatCreatingAndReading(SendableOnDemandConsumer.init, { $0.service })
  case "sendable-singleton-world":
    withIsolatedInjections { repeatCreatingAndReading(SendableSingletonConsumer.init, { $0.service }) }
  default: fatalError("Unknown scenario \(scenario).")
  }
}

/// Runs an actor's steady reads, counted inside `inject_profile_actor_reads` or
/// `inject_profile_sendable_actor_reads`.
///
/// The actors run on the main actor's executor, so the main thread is isolated to them: the
/// checks of `assumeIsolated` pass.
@MainActor
func runActorReads(_ scenario: String) {
  switch scenario {
  case "actor-lazy-read": LazyActor().assumeIsolated { actorReads($0) }
  case "sendable-actor-read": SendableActor().assumeIsolated { sendableActorReads($0) }
  default: fatalError("Unknown scenario \(scenario).")
  }
}

/// Prints the median time of capturing the graph of 10,000 consumer objects given as roots, a
/// third of each strategy, every one resolved: 10,000 roots, 10,000 edges walked, and the
/// `.onDemand` instances met on the way.
@MainActor
func timeGraphCapture() {
  let count = 10_000
  let roots: [AnyObject] = (0..<count).map { index in
    switch index % 3 {
    case 0:
      let consumer = SingletonConsumer()
      _ = consumer.service
      return consumer
    case 1:
      let consumer = SharedConsumer()
      _ = consumer.service
      return consumer
    default:
      let consumer = OnDemandConsumer()
      _ = consumer.service
      return consumer
    }
  }
  let clock = ContinuousClock()
  var times: [Duration] = []
  for _ in 0..<21 {
    var graph: InjectionGraph?
    times.append(clock.measure { graph = InjectionGraph.capture(roots: roots) })
    precondition(graph?.nodes.count == count + 3 && graph?.errors.isEmpty == true)
  }
  let median = times.sorted()[times.count / 2]
  let milliseconds = Double(median.components.attoseconds) / 1e15 + Double(median.components.seconds) * 1e3
  print("InjectionGraph.capture of \(count) consumers: \(milliseconds) ms (median of \(times.count))")
}

/// A consumer of one of the session injections of `timeSessionEnd`.
final class AnySessionConsumer {
  @Instance var service: any Service
  init(_ injection: Injection<any Service>) { _service = Instance(injection) }
}

/// Prints the median time of `end()` for a session whose generation stores 1,000 instances, each
/// held by 10 of 10,000 consumer objects, and of `survivors(roots:)` over those consumers, which
/// finds all 1,000 with their paths.
@MainActor
func timeSessionEnd() {
  let session = InjectionSession("sign-out")
  let injections = (0..<1_000).map { _ in
    Injection<any Service>(strategy: .session(session), instance: ServiceImplementation())
  }
  let clock = ContinuousClock()
  var (ends, reports): ([Duration], [Duration]) = ([], [])
  for _ in 0..<21 {
    let consumers = (0..<10_000).map { AnySessionConsumer(injections[$0 % injections.count]) }
    for consumer in consumers {
      _ = consumer.service
    }
    ends.append(clock.measure { session.end() })
    var survivors: [InjectionSession.Survivor] = []
    reports.append(clock.measure { survivors = session.survivors(roots: consumers) })
    precondition(survivors.count == injections.count)
  }
  func median(_ times: [Duration]) -> Double {
    let median = times.sorted()[times.count / 2]
    return Double(median.components.attoseconds) / 1e15 + Double(median.components.seconds) * 1e3
  }
  print(
    "end() of a session with 1,000 instances held by 10,000 consumers: \(median(ends)) ms; "
      + "survivors(roots:) over them: \(median(reports)) ms (medians of \(ends.count))")
}

guard CommandLine.arguments.count == 2 else {
  fatalError(
    "usage: InjectProfile graph-capture|session-end|lazy-global|lazy-new|lazy-weak|singleton|shared|on-demand|singleton-defaults|session"
      + "|singleton-world|singleton-world-depth-1000|singleton-world-distinct-1000|on-demand-world"
      + "|singleton-world-alive|singleton-telemetry|locked-lazy-global|factory-style|dependencies-style"
      + "|sendable-contention|actor-lazy-read|sendable-actor-read|sendable-singleton|sendable-shared|sendable-on-demand|sendable-singleton-world|locked-lazy-weak"
      + "|dictionary-lookup|family-lookup|sendable-family-lookup|weak-box-lazy|family-shared-consumer"
      + "|sendable-family-shared-consumer|factory-style-parameter|family-consumer-read|shared-read"
  )
}
// Long-lived holders keep the shared instances alive, as in the benchmarks.
let weakHolder = LazyWeak()
let sharedHolder = SharedConsumer()
let sendableSharedHolder = SendableSharedConsumer()
escaped = [weakHolder.service, sharedHolder.service]
escapedService = sendableSharedHolder.service
let lockedWeakHolder = LockedWeakConsumer()
_ = lockedWeakHolder.service
if CommandLine.arguments[1] == "graph-capture" {
  timeGraphCapture()
} else if CommandLine.arguments[1] == "session-end" {
  timeSessionEnd()
} else if familyScenarios.contains(CommandLine.arguments[1]) {
  prepareFamilies()
  runFamily(CommandLine.arguments[1])
} else if CommandLine.arguments[1] == "sendable-contention" {
  await timeContention(tasks: 16)
} else if CommandLine.arguments[1].hasPrefix("sendable-") && !CommandLine.arguments[1].hasSuffix("-read") {
  runSendable(CommandLine.arguments[1])
} else if CommandLine.arguments[1] == "locked-lazy-weak" {
  runLockedWeak()
} else if ["actor-lazy-read", "sendable-actor-read"].contains(CommandLine.arguments[1]) {
  runActorReads(CommandLine.arguments[1])
} else {
  run(CommandLine.arguments[1])
}
