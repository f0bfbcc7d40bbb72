import Inject
import ServicePackage

/// A screen that consumes the published injections; the configuration lives in
/// ServicePackage, beside the implementation.
final class Screen {
  let title: String
  @Instance(ServicePackage.serviceShared) var shared
  @Instance(ServicePackage.serviceSingleton) var singleton
  @Instance(ServicePackage.serviceOnDemand) var onDemand

  init(_ title: String) { self.title = title }
}

/// A mock, as a test, preview or demo target would publish it.
final class MockService: Service {
  let name = "mock"
  func doWork() -> String { "mock work" }
}

func same(_ a: any Service, _ b: any Service) -> String { a === b ? "same instance" : "different instances" }

print(".shared: one instance while anyone holds it")
var screens = [Screen("first"), Screen("second")]
print("  first and second: \(same(screens[0].shared, screens[1].shared))")
screens.removeFirst()
print("  first is gone; second still holds \(screens[0].shared.name)")
screens.removeAll()
print("  second is gone too, so the next screen gets a fresh one:")
let third = Screen("third")
print("  third has \(third.shared.name)")

print("\n.singleton: one instance for the life of the process")
let a = Screen("a")
let b = Screen("b")
print("  a and b: \(same(a.singleton, b.singleton)) (\(a.singleton.name))")

print("\n.onDemand: a new instance for every consumer, released with it")
var pair = [Screen("c"), Screen("d")]
print("  c and d: \(same(pair[0].onDemand, pair[1].onDemand)) (\(pair[0].onDemand.name), \(pair[1].onDemand.name))")
pair.removeFirst()
let d = pair[0]

print("\nlocal override: one consumer only")
d.singleton = MockService()
print("  d has \(d.singleton.name), a still has \(a.singleton.name)")

print("\nglobal override, as a preview or demo target does at its start")
serviceSingleton.override(with: MockService())
print("  a new screen gets \(Screen("e").singleton.name); a, resolved before, keeps \(a.singleton.name)")
serviceSingleton.rollbackOverride()
print("  after rollback a new screen gets \(Screen("f").singleton.name) again")
