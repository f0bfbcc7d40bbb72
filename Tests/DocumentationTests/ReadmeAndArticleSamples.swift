import DocumentationFixtures
public import Inject
import InjectTesting
public import ServicePackage
import Testing

// The code samples of README.md, MIGRATION.md and the DocC articles, compiled and run.
// scripts/check-doc-snippets checks that every sample is here (or in the example, or, for 1.x
// code, in InjectLegacyTests).

final class Consumer {
  @Instance(ServicePackage.serviceShared) var service
}

/// The injection that the overriding guide delegates to.
@MainActor public let serviceLocal = Injection<any Service>(strategy: .onDemand, instance: ServiceImplementation())

/// The samples that override `serviceShared` globally run one at a time, as the documentation
/// shows them: a global override is seen by every test running at the same time.
@Suite(.serialized) @MainActor struct GlobalOverrideSamples {
  @Test func readmeOverrideAndRollback() {
    serviceShared.override(with: MockService())
    #expect(Consumer().service.doWork() == "mock work")
    serviceShared.rollbackOverride()
  }

  @Test func overridingGuideStack() {
    serviceShared.override(with: MockService())
    serviceShared.override(with: MockService(), strategy: .onDemand)
    #expect(Consumer().service !== Consumer().service)
    serviceShared.rollbackOverride()
    #expect(Consumer().service.doWork() == "mock work")
    serviceShared.rollbackOverride()
  }

  @Test func overridingGuideDecorator() {
    serviceShared.override(with: { service in LoggingService(wrapping: service) }, strategy: .onDemand)
    #expect(Consumer().service.doWork().hasPrefix("logged: service #"))
    serviceShared.rollbackOverride()
  }

  @Test func overridingGuideDelegation() {
    serviceShared.override(with: serviceLocal)
    #expect(Consumer().service !== Consumer().service, "serviceLocal is .onDemand")
    serviceShared.rollbackOverride()
  }
}

@Suite @MainActor struct ScopedSamples {
  @Test(.overriding(serviceShared, with: MockService()))
  @MainActor func showsTheMock() {
    #expect(Consumer().service.doWork() == "mock work")
  }

  @Test func overridingGuideOneConsumer() {
    let consumer = Consumer()
    consumer.service = MockService()
    consumer.$service.reset()  // resolve from the injection again on the next read
    serviceShared.withOverride(MockService()) {
      #expect(consumer.service.doWork() == "mock work")
    }
  }

  @Test func overridingGuideScope() {
    let name = serviceShared.withOverride(MockService()) {
      Consumer().service.doWork()
    }
    #expect(name == "mock work")
  }

  @Test @MainActor func loadsWithTheMock() async throws {
    try await serviceShared.withOverride(MockService()) {
      try await Task.sleep(for: .milliseconds(1))
      #expect(Consumer().service.doWork() == "mock work")
    }
  }
}

@Suite(.overriding(serviceShared, with: MockService()))
@MainActor struct ScreenTests {
  @Test func showsTheMock() {
    #expect(Consumer().service.doWork() == "mock work")
  }

  @Test(.overriding(serviceShared, with: { _ in MockService() }, strategy: .onDemand))
  func eachConsumerGetsItsOwnMock() {
    #expect(Consumer().service !== Consumer().service)
  }
}

// MARK: Diagnostics

final class PrintTelemetry: InjectionTelemetry {
  func record(_ event: InjectionEvent) { print(event) }
}

/// Compiled, not run: installing a telemetry would reach the tests running beside these.
@MainActor func installPrintTelemetry() {
  installTelemetry(PrintTelemetry())
}
