import Dependencies
import Inject
import Swinject

/// The dependency every library resolves: a class behind a protocol, as in an app.
protocol Service: AnyObject, Sendable {
  func value() -> Int
}

final class ServiceImplementation: Service {
  func value() -> Int { 1 }
}

/// The instance the hand-written baselines read.
let globalService: any Service = ServiceImplementation()

/// A consumer of the dependency, whichever library provides it.
@MainActor
protocol Reading {
  var service: any Service { get }
}

/// A consumer made without arguments.
@MainActor
protocol MadeWithoutArguments: Reading {
  init()
}

// MARK: Hand-written baselines

/// A stored `let`: the cost of the loop and of reading a stored property.
final class LetConsumer: Reading {
  let service: any Service
  init(_ service: any Service) { self.service = service }
}

/// A `lazy var` to the global instance: the baseline for `.singleton` and `.shared`.
final class LazyGlobalConsumer: Reading {
  lazy var service: any Service = globalService
}

/// A `lazy var` that builds its own instance: the baseline for `.onDemand`.
final class LazyNewConsumer: Reading {
  lazy var service: any Service = ServiceImplementation()
}

/// A `lazy var` to the global instance, in a second object made with the consumer.
///
/// What one more allocation per consumer costs, with no injection at all. Not a target's
/// baseline: it shows how much of `@Instance`'s cost is its storage's allocation.
final class BoxedLazyGlobalConsumer: Reading {
  final class Box {
    lazy var service: any Service = globalService
  }

  let box = Box()
  var service: any Service { box.service }
}

/// The instance the hand-written `.shared` baseline reads, held weakly as `.shared` holds it.
@MainActor weak var weakGlobalService: (any Service)?

/// A hand-written `.shared`: the instance while anyone holds it, a new one after the last goes.
@MainActor func sharedGlobalService() -> any Service {
  if let service = weakGlobalService {
    return service
  }
  let service = ServiceImplementation()
  weakGlobalService = service
  return service
}

/// A `lazy var` to a weakly held instance: the baseline for `.shared`.
///
/// A weakly referenced object has a side table, which every retain and release of it goes
/// through, so reading it costs more than reading `globalService` in any code that releases it
/// after its last holder.
final class LazySharedConsumer: MadeWithoutArguments {
  lazy var service: any Service = sharedGlobalService()
}

// MARK: Inject

let injectSingleton = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())
let injectShared = Injection<any Service>(strategy: .shared, instance: ServiceImplementation())
let injectOnDemand = Injection<any Service>(strategy: .onDemand, instance: ServiceImplementation())

final class InjectSingletonConsumer: Reading {
  @Instance(injectSingleton) var service
}

final class InjectSharedConsumer: MadeWithoutArguments {
  @Instance(injectShared) var service
}

final class InjectOnDemandConsumer: Reading {
  @Instance(injectOnDemand) var service
}

/// An injection that declares preview and test values beside the live one.
let injectContextDefaults = Injection<any Service>(
  strategy: .singleton, instance: ServiceImplementation(), preview: ServiceImplementation(),
  test: ServiceImplementation())

final class InjectContextDefaultsConsumer: Reading {
  @Instance(injectContextDefaults) var service
}

/// A consumer of an injection chosen at run time (for the scaling and override scenarios).
final class InjectDynamicConsumer: Reading {
  @Instance var service: any Service
  init(_ injection: Injection<any Service>) { _service = Instance(injection) }
}

// MARK: Swinject

/// A container with the dependency in each of Swinject's scopes closest to Inject's strategies.
@MainActor
let swinject: Container = {
  let container = Container()
  container.register((any Service).self, name: "container") { _ in ServiceImplementation() }.inObjectScope(.container)
  container.register((any Service).self, name: "weak") { _ in ServiceImplementation() }.inObjectScope(.weak)
  container.register((any Service).self, name: "transient") { _ in ServiceImplementation() }.inObjectScope(.transient)
  return container
}()

/// A consumer that resolves in its initializer, as Swinject's documentation shows.
final class SwinjectConsumer: Reading {
  let service: any Service
  init(_ resolver: any Resolver, name: String) {
    guard let service = resolver.resolve((any Service).self, name: name) else {
      fatalError("The benchmark registers every name it resolves; \(name) is missing.")
    }
    self.service = service
  }
}

// MARK: swift-dependencies

private enum ServiceKey: DependencyKey {
  static let liveValue: any Service = ServiceImplementation()
}

extension DependencyValues {
  var service: any Service {
    get { self[ServiceKey.self] }
    set { self[ServiceKey.self] = newValue }
  }
}

final class DependenciesConsumer: Reading {
  @Dependencies.Dependency(\.service) var service
}
