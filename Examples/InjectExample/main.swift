import Inject
import ServicePackage

/// A screen that consumes the published injections; their configuration lives in
/// ServicePackage, beside the implementation.
final class Screen {
  @Instance(ServicePackage.sharedServiceInjection) var shared
  @Instance(ServicePackage.singletonServiceInjection) var singleton
  @Instance(ServicePackage.onDemandServiceInjection) var onDemand
}

/// A mock, as a test, preview or demo target would publish it.
final class MockService: Service {
  func doWork() -> String { "mock" }
}

func same(_ first: any Service, _ second: any Service) -> String {
  first === second ? "the same instance" : "different instances"
}

print(".shared: one instance while anyone holds it")
var screens = [Screen(), Screen()]
print("  two screens: \(same(screens[0].shared, screens[1].shared)), \(screens[0].shared.doWork())")
screens.removeFirst()
print("  the first screen is gone; the second still holds \(screens[0].shared.doWork())")
screens.removeAll()
print("  the second is gone too, so the next screen gets a new one:")
let third = Screen()
print("  a third screen has \(third.shared.doWork())")

print("\n.singleton: one instance for the life of the process")
let first = Screen()
let second = Screen()
print("  two screens: \(same(first.singleton, second.singleton)), \(first.singleton.doWork())")

print("\n.onDemand: a new instance for every consumer, released with it")
var pair = [Screen(), Screen()]
print(
  "  two screens: \(same(pair[0].onDemand, pair[1].onDemand)), \(pair[0].onDemand.doWork()) and \(pair[1].onDemand.doWork())"
)
print("  one screen goes:")
pair.removeFirst()

print("\nlocal override: one consumer only")
second.singleton = MockService()
print("  the second screen has \(second.singleton.doWork()); the first still has \(first.singleton.doWork())")

print("\nglobal override, as a preview, demo or UI-test target does at its start")
print("  (here it comes after the first screen resolved: a debug build prints an Inject warning)")
singletonServiceInjection.override(with: MockService())
print("  a new screen gets \(Screen().singleton.doWork())")
print("  the first screen resolved before the override, so it keeps \(first.singleton.doWork())")
singletonServiceInjection.rollbackOverride()
print("  after the rollback a new screen gets \(Screen().singleton.doWork()) again")
