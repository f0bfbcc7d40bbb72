import Inject
import Testing

// The 2.0 API in the Swift 5 language mode, where a class or struct that declares `@Instance` is
// inferred to be main-actor-isolated, as in 1.1: the consumers below declare no isolation, and
// their methods read the property. This file compiles only because that inference holds.

/// A plain class, not `Sendable`, as the README's service is.
final class Worker {
  var result = ""

  init(result: String = "") {
    self.result = result
  }
}

// One injection per test: tests run in parallel.
let classWorker = Injection<Worker>(strategy: .shared, instance: Worker())
let structWorker = Injection<Worker>(strategy: .singleton, instance: Worker(result: "published"))
let overriddenWorker = Injection<Worker>(strategy: .shared, instance: Worker(result: "published"))
let delegatedWorker = Injection<Worker>(strategy: .onDemand, instance: Worker(result: "published"))

/// The README's consumer.
final class ClassConsumer {
  @Instance(classWorker) var worker

  func perform() -> String { worker.result }
}

struct StructConsumer {
  @Instance(structWorker) var worker

  func perform() -> String { worker.result }
}

final class OverrideConsumer {
  @Instance(overriddenWorker) var worker

  func perform() -> String { worker.result }
}

final class DelegatingConsumer {
  @Instance(delegatedWorker) var worker

  func perform() -> String { worker.result }
}

@Suite @MainActor struct InstanceIsolationTests {
  @Test func aClassDeclaringInstanceReadsItInItsMethods() {
    let consumer = ClassConsumer()
    #expect(consumer.perform() == "")
    let local = Worker(result: "local")
    consumer.worker = local
    #expect(consumer.perform() == "local")
    #expect(consumer.worker === local)
    #expect(ClassConsumer().worker !== local, "assigning replaces it for that consumer only")
  }

  @Test func aStructDeclaringInstanceReadsItInItsMethods() {
    let consumer = StructConsumer()
    #expect(consumer.perform() == "published")
    #expect(StructConsumer().worker === consumer.worker, "the injection is a singleton")
    consumer.$worker.reset()
    #expect(consumer.worker === StructConsumer().worker)
  }

  @Test func aGlobalOverrideReachesAConsumerCreatedBeforeItUntilRolledBack() {
    // A global override in a test process warns; this test pushes one on purpose.
    withDebugWarningsSilenced { globalOverrideReachesAConsumerCreatedBeforeItUntilRolledBack() }
  }

  private func globalOverrideReachesAConsumerCreatedBeforeItUntilRolledBack() {
    let consumer = OverrideConsumer()
    let mock = Worker(result: "mock")
    overriddenWorker.override(with: { _ in mock })
    #expect(consumer.perform() == "mock")
    #expect(consumer.worker === mock)
    overriddenWorker.rollbackOverride()
    #expect(consumer.worker === mock, "a consumer keeps what it read")
    #expect(OverrideConsumer().perform() == "published")
  }

  @Test func anOverrideWithAnotherInjectionDelegatesToItUntilRolledBack() {
    withDebugWarningsSilenced { overrideWithAnotherInjectionDelegatesToItUntilRolledBack() }
  }

  private func overrideWithAnotherInjectionDelegatesToItUntilRolledBack() {
    let mock = Worker(result: "mock")
    let replacement = Injection<Worker>(strategy: .shared, instance: mock)
    delegatedWorker.override(with: replacement)
    #expect(DelegatingConsumer().worker === mock)
    #expect(DelegatingConsumer().perform() == "mock")
    delegatedWorker.rollbackOverride()
    weak let released = DelegatingConsumer().worker
    #expect(released == nil, "on demand again: released with its consumer")
  }
}
