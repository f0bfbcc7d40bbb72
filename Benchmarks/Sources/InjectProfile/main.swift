// Creates consumers and reads them once, per strategy and for the hand-written baselines, so that
// `Benchmarks/profile` can count the instructions under callgrind: exact and repeatable where the
// wall-clock times of `Benchmarks/run` move with the machine's load.
//
//   InjectProfile <scenario>    runs one scenario `iterations` times inside `inject_profile_run`
//   InjectProfile graph-capture prints the median time of InjectionGraph.capture over 10,000
//                               consumers, in milliseconds (a wall-clock time, not under valgrind)

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

final class SingletonConsumer { @Instance(singleton) var service }
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

guard CommandLine.arguments.count == 2 else {
  fatalError(
    "usage: InjectProfile graph-capture|lazy-global|lazy-new|lazy-weak|singleton|shared|on-demand|singleton-defaults"
      + "|singleton-world|singleton-world-depth-1000|singleton-world-distinct-1000|on-demand-world"
      + "|singleton-world-alive|singleton-telemetry")
}
// Long-lived holders keep the shared instances alive, as in the benchmarks.
let weakHolder = LazyWeak()
let sharedHolder = SharedConsumer()
escaped = [weakHolder.service, sharedHolder.service]
if CommandLine.arguments[1] == "graph-capture" {
  timeGraphCapture()
} else {
  run(CommandLine.arguments[1])
}
