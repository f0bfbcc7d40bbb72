import DocumentationFixtures
public import Inject
import InjectTesting
import ProfileKit
import ServicePackage
import Testing

// The samples of the `///` comments of Inject's and InjectTesting's public symbols, which DocC
// shows on each symbol's page, compiled in the Swift 6 language mode and run. Their 1.x symbols'
// samples are in InjectLegacyTests; the launch test's on Linux in ExampleProcessTests.

// MARK: Injection, Strategy, CodeLocation

/// What `Strategy`'s sample publishes.
public protocol Analytics: AnyObject {}

/// The live analytics of `Strategy`'s sample.
public final class LiveAnalytics: Analytics {
  /// Live analytics.
  public init() {}
}

/// `Strategy`'s sample injection.
public let analyticsInjection = Injection<any Analytics>(strategy: .singleton, instance: LiveAnalytics())

/// A report built with the analytics its factory resolved: `Injection.resolve()`'s sample.
public final class AnalyticsReport {
  let analytics: any Analytics
  init(analytics: any Analytics) { self.analytics = analytics }
}

/// `Injection.resolve()`'s sample injection.
public let analyticsReportInjection = Injection<AnalyticsReport>(
  strategy: .onDemand, instance: AnalyticsReport(analytics: analyticsInjection.resolve()))

@Suite(.misusesOnPurpose) @MainActor struct InjectionSymbolSamples {
  @Test func aStrategyIsChosenWhereTheDependencyIsPublished() {
    #expect(analyticsInjection.strategy == .singleton)
    #expect(Consumer(analyticsInjection).value === Consumer(analyticsInjection).value)
  }

  @Test func aFactoryResolvesWhatItBuildsWith() {
    let report = analyticsReportInjection.resolve()
    #expect(report.analytics === analyticsInjection.resolve())
    #expect(analyticsReportInjection.resolve() !== report)
  }

  @Test func aLocationPrintsAsItsFileAndLine() {
    #expect("\(CodeLocation(fileID: "ServicePackage/Services.swift", line: 12))" == "ServicePackage/Services.swift:12")
  }

  @Test func anInjectionDescribesItsStackTopFirst() {
    let service = Injection<any Service>(
      strategy: .shared, instance: ServiceImplementation(), fileID: "ServicePackage/Services.swift", line: 12)
    let mock = MockService()
    service.override(with: mock, strategy: .singleton, fileID: "AppTests/ScreenTests.swift", line: 9)
    defer { service.rollbackOverride() }
    let screen = Screen(service)
    #expect(screen.service === mock)
    // The sample's `debugPrint` writes here, which the test checks, not to the test's output.
    var printed = ""
    func debugPrint(_ item: Any) { Swift.debugPrint(item, to: &printed) }
    debugPrint(service)
    // Injection<Service> published at ServicePackage/Services.swift:12, strategy .shared
    //   override layer 1: instance, .singleton, pushed at AppTests/ScreenTests.swift:9, holds an instance
    //   the published layer: instance, .shared, published at ServicePackage/Services.swift:12
    #expect(
      service.debugDescription == """
        Injection<Service> published at ServicePackage/Services.swift:12, strategy .shared
          override layer 1: instance, .singleton, pushed at AppTests/ScreenTests.swift:9, holds an instance
          the published layer: instance, .shared, published at ServicePackage/Services.swift:12
        """)
    debugPrint(screen.$service)
    // @Instance at App/Screen.swift:8 of Injection<Service> (ServicePackage/Services.swift:12): resolved
    #expect(
      screen.$service.debugDescription
        == "@Instance at App/Screen.swift:8 of Injection<Service> (ServicePackage/Services.swift:12): resolved")
    #expect(printed == service.debugDescription + "\n" + screen.$service.debugDescription + "\n")
  }
}

/// A consumer of any injection.
@MainActor private final class Consumer<T> {
  @Instance var value: T
  init(_ injection: Injection<T>) { _value = Instance(injection) }
}

/// The screen that the introspection samples describe.
@MainActor private final class Screen {
  @Instance var service: any Service
  init(_ injection: Injection<any Service>) { _service = Instance(injection, fileID: "App/Screen.swift", line: 8) }
}

// MARK: Overriding

@Suite(.misusesOnPurpose) @MainActor struct OverrideSymbolSamples {
  @Test func aGlobalOverrideIsRolledBackAtTheEndOfTheScope() {
    // A global override reaches every test running at the same time: this one shadows
    // ProfileKit's injection with one of its own.
    let apiClientInjection = Injection<any APIClient>(strategy: .singleton, instance: LiveAPIClient())
    do {
      apiClientInjection.override(with: MockAPIClient())
      defer { apiClientInjection.rollbackOverride() }
      #expect(Consumer(apiClientInjection).value is MockAPIClient)
    }
    #expect(Consumer(apiClientInjection).value is LiveAPIClient)
  }

  @Test @MainActor func searchesWithTheMock() {
    apiClientInjection.withOverride(MockAPIClient()) {
      #expect(UserSearchModel().apiClient is MockAPIClient)
    }
  }

  @Test @MainActor func loadsThroughTheMock() async throws {
    let user = try await apiClientInjection.withOverride(MockAPIClient(users: [.sample])) {
      try await LiveUserRepository().user(id: User.sample.id)
    }
    #expect(user == .sample)
  }
}

// MARK: Instance

enum InstanceSymbolSamples {
  @MainActor final class ProfileModel {
    @Instance(userRepositoryInjection) var repository
  }

  /// A repository that a consumer is given instead of the published one.
  @MainActor final class InMemoryUserRepository: UserRepository {
    func user(id: Int) async throws -> User { .sample }
    func cachedUser(id: Int) -> User? { .sample }
  }
}

@Suite(.isolatedInjections) @MainActor struct InstanceSymbolSampleTests {
  @Test func assigningReplacesTheInstanceForOneConsumerAndResetResolvesAgain() {
    typealias ProfileModel = InstanceSymbolSamples.ProfileModel
    typealias InMemoryUserRepository = InstanceSymbolSamples.InMemoryUserRepository
    let model = ProfileModel()
    let other = ProfileModel()
    model.repository = InMemoryUserRepository()  // only this model
    #expect(model.repository is InMemoryUserRepository)
    #expect(other.repository is LiveUserRepository)
    model.$repository.reset()  // the next read resolves from the injection again
    #expect(model.repository === other.repository)
  }
}

// MARK: Worlds and traits

enum IsolatedInjectionsSamples {
  /// A screen that reads the repository.
  @MainActor final class Reader {
    @Instance(userRepositoryInjection) var repository
  }
}

extension IsolatedInjectionsSamples {
  @Suite @MainActor struct Tests {
    @Test @MainActor func eachWorldBuildsItsOwnRepository() {
      let first = withIsolatedInjections { Reader().repository }
      let second = withIsolatedInjections { Reader().repository }
      #expect(first !== second)
    }
  }
}

@Suite(.isolatedInjections)
@MainActor struct RepositoryTests {
  @Test func buildsItsOwnRepository() {
    let reader = IsolatedInjectionsSamples.Reader()
    #expect(reader.repository === IsolatedInjectionsSamples.Reader().repository)
    #expect(reader.repository !== withIsolatedInjections { IsolatedInjectionsSamples.Reader().repository })
  }
}

@Suite struct IsolationTraitSamples {
  @Test(.isolatedInjections) @MainActor func buildsItsOwnRepository() {
    let repository = IsolatedInjectionsSamples.Reader().repository
    #expect(repository !== withIsolatedInjections { IsolatedInjectionsSamples.Reader().repository })
  }
}

@Suite(.isolatedInjections(strict: true, reportingLeaks: true, checkingGraph: true))
@MainActor struct CheckoutTests {
  @Test func resolvesTheClientsTestValue() async throws {
    #expect(try await UserSearchModel().apiClient.fetchUser(id: User.sample.id) == .sample)
  }
}

@Suite struct OverrideTraitSymbolSamples {
  @Test(.overriding(apiClientInjection, with: MockAPIClient(users: [])))
  @MainActor func showsWhyTheUserCouldNotBeLoaded() async {
    await #expect(throws: (any Error).self) { try await UserSearchModel().apiClient.fetchUser(id: 1) }
  }

  @Test(.overriding(apiClientInjection, with: MockAPIClient()))
  @MainActor func searchesWithTheMock() {
    #expect(UserSearchModel().apiClient is MockAPIClient)
  }
}

// MARK: Telemetry

/// The sample telemetry of `InjectionTelemetry`; installing one is global, so it is compiled here,
/// not installed (TelemetryTests install theirs one at a time).
final class RecordingTelemetry: InjectionTelemetry {
  @MainActor private(set) var events: [InjectionEvent] = []
  func record(_ event: InjectionEvent) { events.append(event) }
}

@MainActor func installRecordingTelemetry() {
  installTelemetry(RecordingTelemetry())
}

/// Stands in for swift-log's `Logger`, so that the sample that forwards to swift-log compiles in
/// a package with no dependencies.
struct Logger {
  let label: String
  func debug(_ message: String) {}
}

struct SwiftLogTelemetry: InjectionTelemetry {
  let logger = Logger(label: "Inject")
  func record(_ event: InjectionEvent) { logger.debug("\(event)") }
}

/// Prints where each injection was published.
struct PublishedAtTelemetry: InjectionTelemetry {
  func record(_ event: InjectionEvent) {
    print(event.publishedAt)  // "ServicePackage/Services.swift:12"
  }
}
