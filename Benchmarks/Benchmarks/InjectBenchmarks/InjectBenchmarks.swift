import Benchmark
import Dependencies
import Inject
import Swinject

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Each sample runs its body `scalingFactor` (1,000) times, so that a few-nanosecond operation
/// is measured over microseconds; BenchmarkReport divides by 1,000 again.
///
/// `BENCHMARK_SMOKE=1` runs every benchmark briefly, so that CI checks they build and run.
func configuration() -> Benchmark.Configuration {
  let smoke = getenv("BENCHMARK_SMOKE") != nil
  return .init(
    metrics: [.wallClock, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: smoke ? 1 : 100,
    scalingFactor: .kilo,
    maxDuration: smoke ? .milliseconds(20) : .seconds(2),
    maxIterations: smoke ? 5 : 2_000
  )
}

/// Registers a benchmark that runs on the main actor.
///
/// Reading an `@Instance` is isolated to the main actor, and the runner calls benchmarks off it,
/// so each sample hops to the main actor once. The body sets up what it needs, then calls
/// ``Benchmark/measure(_:)``: only that loop is measured, not the hop or the setup.
func mainActorBenchmark(_ name: String, _ body: @escaping @MainActor (Benchmark) -> Void) {
  Benchmark(name, configuration: configuration()) { benchmark async in
    // NB: `Benchmark` is a non-Sendable class. Sending it to the main actor is safe here: the
    // runner blocks until this closure returns and touches `benchmark` neither meanwhile nor
    // from any other task, so the main actor is its only user until the closure ends.
    nonisolated(unsafe) let benchmark = benchmark
    await MainActor.run { body(benchmark) }
  }
}

extension Benchmark {
  /// Measures `operation` once for each iteration of the sample, and nothing else.
  @inline(__always)
  func measure(_ operation: () -> Void) {
    startMeasurement()
    for _ in scaledIterations { operation() }
    stopMeasurement()
  }
}

/// Reads a new consumer's dependency once, and lets the consumer escape, as it does in an app,
/// so that the optimizer cannot promote it to the stack: every library's consumer and every
/// baseline's pays for its heap allocation.
@MainActor @inline(__always)
func createAndRead<Consumer: AnyObject & Reading>(_ consumer: Consumer) {
  blackHole(consumer.service)
  blackHole(consumer)
}

/// Registers scenario 2 for `Consumer` while a long-lived consumer holds the instance, as a
/// screen of an app would: the steady state of a shared instance.
func creationWhileHeld<Consumer: AnyObject & MadeWithoutArguments>(_ name: String, _: Consumer.Type) {
  mainActorBenchmark(name) { benchmark in
    let holder = Consumer()
    blackHole(holder.service)
    benchmark.measure { createAndRead(Consumer()) }
    blackHole(holder)
  }
}

let benchmarks: @Sendable () -> Void = {
  steadyStateRead()
  creationAndFirstRead()
  scaling()
  overrides()
  generalPath()
  families()
}

// MARK: 1. Steady-state read of an already resolved dependency

func steadyStateRead() {
  mainActorBenchmark("read/baseline let") { benchmark in
    let consumer = LetConsumer(globalService)
    benchmark.measure { blackHole(consumer.service) }
  }
  mainActorBenchmark("read/baseline lazy var") { benchmark in
    let consumer = LazyGlobalConsumer()
    benchmark.measure { blackHole(consumer.service) }
  }
  mainActorBenchmark("read/Inject @Instance") { benchmark in
    let consumer = InjectSingletonConsumer()
    benchmark.measure { blackHole(consumer.service) }
  }
  mainActorBenchmark("read/Swinject resolve") { benchmark in
    benchmark.measure { blackHole(swinject.resolve((any Service).self, name: "container")) }
  }
  mainActorBenchmark("read/swift-dependencies @Dependency") { benchmark in
    let consumer = DependenciesConsumer()
    benchmark.measure { blackHole(consumer.service) }
  }
}

// MARK: 2. Creating a consumer and reading it once

func creationAndFirstRead() {
  mainActorBenchmark("create/baseline lazy var (global)") { benchmark in
    benchmark.measure { createAndRead(LazyGlobalConsumer()) }
  }
  mainActorBenchmark("create/baseline lazy var (new instance)") { benchmark in
    benchmark.measure { createAndRead(LazyNewConsumer()) }
  }
  mainActorBenchmark("create/baseline lazy var in a second object") { benchmark in
    benchmark.measure { createAndRead(BoxedLazyGlobalConsumer()) }
  }
  creationWhileHeld("create/baseline lazy var (weak global)", LazySharedConsumer.self)
  mainActorBenchmark("create/Inject .singleton") { benchmark in
    benchmark.measure { createAndRead(InjectSingletonConsumer()) }
  }
  creationWhileHeld("create/Inject .shared", InjectSharedConsumer.self)
  mainActorBenchmark("create/Inject .onDemand") { benchmark in
    benchmark.measure { createAndRead(InjectOnDemandConsumer()) }
  }
  for scope in ["container", "weak", "transient"] {
    mainActorBenchmark("create/Swinject .\(scope)") { benchmark in
      let holder = SwinjectConsumer(swinject, name: scope)
      benchmark.measure { createAndRead(SwinjectConsumer(swinject, name: scope)) }
      blackHole(holder)
    }
  }
  mainActorBenchmark("create/swift-dependencies live value") { benchmark in
    benchmark.measure { createAndRead(DependenciesConsumer()) }
  }
}

// MARK: 3. 10 vs 10,000 dependencies alive in the program

func scaling() {
  for count in [10, 10_000] {
    mainActorBenchmark("scale/Inject \(count) injections") { benchmark in
      let injections = (0..<count).map { _ in
        Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())
      }
      let injection = injections[count / 2]
      benchmark.measure { createAndRead(InjectDynamicConsumer(injection)) }
    }
    mainActorBenchmark("scale/Swinject \(count) registrations") { benchmark in
      let container = Container()
      for index in 0..<count {
        container.register((any Service).self, name: "\(index)") { _ in ServiceImplementation() }
          .inObjectScope(.container)
      }
      let name = "\(count / 2)"
      benchmark.measure { createAndRead(SwinjectConsumer(container, name: name)) }
    }
  }
}

// MARK: 4. Overrides

func overrides() {
  let mock: any Service = ServiceImplementation()
  mainActorBenchmark("override/Inject push + first read + rollback") { benchmark in
    let injection = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())
    benchmark.measure {
      injection.override(with: mock)
      createAndRead(InjectDynamicConsumer(injection))
      injection.rollbackOverride()
    }
  }
  mainActorBenchmark("override/Inject scoped override + first read") { benchmark in
    let injection = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())
    benchmark.measure {
      injection.withOverride(mock) { createAndRead(InjectDynamicConsumer(injection)) }
    }
  }
  mainActorBenchmark("override/swift-dependencies withDependencies + first read") { benchmark in
    benchmark.measure {
      withDependencies {
        $0.service = mock
      } operation: {
        createAndRead(DependenciesConsumer())
      }
    }
  }
  mainActorBenchmark("override/Inject first read inside a scope of the same injection") { benchmark in
    let injection = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())
    injection.withOverride(mock) {
      benchmark.measure { createAndRead(InjectDynamicConsumer(injection)) }
    }
  }
  mainActorBenchmark("override/Inject first read inside a scope of another injection") { benchmark in
    let injection = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())
    let other = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())
    other.withOverride(mock) {
      benchmark.measure { createAndRead(InjectDynamicConsumer(injection)) }
    }
  }
}

// MARK: 5. The general path: in a scope's world, with a telemetry, and with context defaults

func generalPath() {
  mainActorBenchmark("general/Inject .singleton in an isolated world") { benchmark in
    withIsolatedInjections {
      blackHole(InjectSingletonConsumer().service)
      benchmark.measure { createAndRead(InjectSingletonConsumer()) }
    }
  }
  mainActorBenchmark("general/Inject .singleton with a no-op telemetry") { benchmark in
    installTelemetry(NoTelemetry())
    benchmark.measure { createAndRead(InjectSingletonConsumer()) }
    installTelemetry(nil)
  }
  mainActorBenchmark("general/Inject .singleton with preview and test values") { benchmark in
    benchmark.measure { createAndRead(InjectContextDefaultsConsumer()) }
  }
}

/// A telemetry that drops every event: what an installed telemetry costs, without its work.
struct NoTelemetry: InjectionTelemetry {
  func record(_ event: InjectionEvent) {}
}

// MARK: 6. Families: one dependency per key

/// Holders of every key in use, each resolved: a family's members and `.shared` instances alive.
@MainActor
func holdingFamilyKeys<Consumer: MadeForKey>(_: Consumer.Type) -> [Consumer] {
  (0..<familyKeysInUse).map { key in
    let holder = Consumer(key)
    blackHole(holder.service)
    return holder
  }
}

/// Registers scenario 2 for a consumer of `familyKey` while every key in use has a holder.
func familyCreationWhileHeld<Consumer: MadeForKey>(_ name: String, _: Consumer.Type) {
  mainActorBenchmark(name) { benchmark in
    let holders = holdingFamilyKeys(Consumer.self)
    benchmark.measure { createAndRead(Consumer(familyKey)) }
    blackHole(holders)
  }
}

func families() {
  mainActorBenchmark("family/baseline dictionary lookup") { benchmark in
    let family = handWrittenFamily
    benchmark.measure { blackHole(family.members[familyKey]) }
  }
  mainActorBenchmark("family/Inject family[key]") { benchmark in
    let holders = holdingFamilyKeys(InjectFamilyConsumer.self)
    benchmark.measure { blackHole(injectFamily[familyKey]) }
    blackHole(holders)
  }
  familyCreationWhileHeld("family/baseline lazy var (weak box dictionary)", WeakBoxLazyConsumer.self)
  familyCreationWhileHeld("family/Inject .shared consumer", InjectFamilyConsumer.self)
  familyCreationWhileHeld(
    "family/Factory-style (emulated) ParameterFactory .shared.scopeOnParameters", FactoryStyleFamilyConsumer.self)
  for scope in ["weak", "transient"] {
    mainActorBenchmark("family/Swinject resolve(argument:) .\(scope)") { benchmark in
      let holders = (0..<familyKeysInUse).map { SwinjectFamilyConsumer($0, name: scope) }
      benchmark.measure { createAndRead(SwinjectFamilyConsumer(familyKey, name: scope)) }
      blackHole(holders)
    }
  }
  mainActorBenchmark("family/Inject read of a resolved .shared @Instance") { benchmark in
    let consumer = InjectSharedConsumer()
    blackHole(consumer.service)
    benchmark.measure { blackHole(consumer.service) }
  }
  mainActorBenchmark("family/Inject read of a resolved family consumer") { benchmark in
    let holders = holdingFamilyKeys(InjectFamilyConsumer.self)
    let consumer = InjectFamilyConsumer(familyKey)
    blackHole(consumer.service)
    benchmark.measure { blackHole(consumer.service) }
    blackHole(holders)
  }
}
