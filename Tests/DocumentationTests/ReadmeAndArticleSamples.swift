public import Inject
import InjectTesting
public import ProfileKit
import Testing

// The code samples of README.md and the DocC articles that are not in the ProfileApp example,
// compiled and run. scripts/check-doc-snippets checks that every sample of the documentation is
// here, in the example, or, for 1.x code, in InjectLegacyTests.

/// The injection that the overriding guide delegates to: a client for demo builds.
public let demoAPIClientInjection = Injection<any APIClient>(strategy: .singleton, instance: MockAPIClient())

/// A decorator: the overriding guide wraps the client beneath in it.
struct LoggingAPIClient: APIClient {
  let wrapped: any APIClient

  init(wrapping client: any APIClient) {
    wrapped = client
  }

  func fetchUser(id: Int) async throws -> User {
    try await wrapped.fetchUser(id: id)
  }
}

/// A consumer of the client whose property a sample assigns: a local override.
@MainActor final class UserSearchModel {
  @Instance(apiClientInjection) var apiClient
}

// MARK: The global override stack

/// The samples that override `apiClientInjection` globally.
///
/// Each test publishes an injection of its own under that name, which shadows ProfileKit's: a
/// global override reaches every test running at the same time, so these leave ProfileKit's
/// alone.
@Suite(.misusesOnPurpose) @MainActor struct GlobalOverrideSamples {
  @Test func overridingGuideStack() {
    let apiClientInjection = publishedClient()
    apiClientInjection.override(with: MockAPIClient())
    let first = Client(apiClientInjection)
    apiClientInjection.override(with: MockAPIClient(), strategy: .onDemand)
    #expect(mock(Client(apiClientInjection)) !== mock(Client(apiClientInjection)), "the top layer is .onDemand")
    apiClientInjection.rollbackOverride()
    #expect(mock(Client(apiClientInjection)) === mock(first), "the first override is .singleton")
    apiClientInjection.rollbackOverride()
    #expect(Client(apiClientInjection).apiClient is LiveAPIClient)
  }

  @Test func overridingGuideDecorator() {
    let apiClientInjection = publishedClient()
    apiClientInjection.override(with: { client in LoggingAPIClient(wrapping: client) }, strategy: .onDemand)
    let decorated = Client(apiClientInjection).apiClient as? LoggingAPIClient
    #expect(decorated?.wrapped is LiveAPIClient, "the decorator receives what the layer beneath builds")
    apiClientInjection.rollbackOverride()
  }

  @Test func overridingGuideDelegation() {
    let apiClientInjection = publishedClient()
    apiClientInjection.override(with: demoAPIClientInjection)
    #expect(mock(Client(apiClientInjection)) === mock(Client(demoAPIClientInjection)), "with its storage")
    apiClientInjection.rollbackOverride()
    #expect(Client(apiClientInjection).apiClient is LiveAPIClient)
  }

  @Test func aPushDoesNotRebuildWhatWasStoredBeforeIt() {
    let apiClientInjection = publishedClient()
    let userRepositoryInjection = Injection<Repository>(strategy: .singleton, instance: Repository(apiClientInjection))
    let before = Reader(userRepositoryInjection).repository
    #expect(before.client is LiveAPIClient)
    apiClientInjection.override(with: MockAPIClient())
    #expect(Reader(userRepositoryInjection).repository === before, "a push does not rebuild what was stored")
    #expect(before.client is LiveAPIClient, "and what was stored keeps the live client")
    apiClientInjection.rollbackOverride()
    #expect(Reader(userRepositoryInjection).repository === before, "stored before the push: kept")
  }

  @Test func aRollbackDropsWhatWasStoredWhileTheOverrideWasInPlace() {
    let apiClientInjection = publishedClient()
    let userRepositoryInjection = Injection<Repository>(strategy: .singleton, instance: Repository(apiClientInjection))
    apiClientInjection.override(with: MockAPIClient())
    let held = Reader(userRepositoryInjection)
    #expect(held.repository.client is MockAPIClient)
    apiClientInjection.rollbackOverride()
    let after = Reader(userRepositoryInjection).repository
    #expect(after !== held.repository, "stored while the mock was in place: dropped")
    #expect(after.client is LiveAPIClient)
    #expect(held.repository.client is MockAPIClient, "a consumer keeps what it holds")
  }
}

/// An injection of the client as ProfileKit publishes it, for one test.
private func publishedClient() -> Injection<any APIClient> {
  Injection<any APIClient>(strategy: .singleton, instance: LiveAPIClient())
}

/// A consumer of a given injection of the client.
@MainActor private final class Client {
  @Instance var apiClient: any APIClient

  init(_ injection: Injection<any APIClient>) {
    _apiClient = Instance(injection)
  }
}

/// The mock that `client` resolved, if it is one.
@MainActor private func mock(_ client: Client) -> MockAPIClient? {
  client.apiClient as? MockAPIClient
}

/// A repository that reads a given injection of the client, as `LiveUserRepository` reads
/// ProfileKit's.
@MainActor private final class Repository {
  @Instance var client: any APIClient

  init(_ injection: Injection<any APIClient>) {
    _client = Instance(injection)
  }
}

/// A screen that reads a given injection of the repository.
@MainActor private final class Reader {
  @Instance var repository: Repository

  init(_ injection: Injection<Repository>) {
    _repository = Instance(injection)
  }
}

// MARK: One consumer, a scope

@Suite @MainActor struct ScopedSamples {
  @Test(.isolatedInjections) func overridingGuideOneConsumer() {
    let search = UserSearchModel()
    search.apiClient = MockAPIClient()
    let assigned = search.apiClient as? MockAPIClient
    #expect(search.apiClient as? MockAPIClient === assigned)
    search.$apiClient.reset()  // resolve from the injection again on the next read
    #expect(search.apiClient as? MockAPIClient !== assigned, "the test world's test value")
  }

  /// Outside a test world: a scope's override reaches the repository built inside it, though
  /// the live client does not know the user.
  @Test func overridingGuideScope() async throws {
    let user = try await apiClientInjection.withOverride(MockAPIClient(users: [.sample])) {
      try await LiveUserRepository().user(id: User.sample.id)
    }
    #expect(user == .sample)
  }
}

// MARK: Leak reports

@Suite @MainActor struct LeakReportSamples {
  @Test(.isolatedInjections(reportingLeaks: true))
  func leavesNothingBehind() async throws {
    let user = try await LiveUserRepository().user(id: User.sample.id)
    #expect(user.id == User.sample.id)
  }

  @Test(
    .isolatedInjections(reportingLeaks: true),
    .overriding(apiClientInjection, with: MockAPIClient(users: [.sample, .demo])))
  func leavesNothingBehindWithAnOverride() async throws {
    let user = try await LiveUserRepository().user(id: User.demo.id)
    #expect(user == .demo)
  }
}

// MARK: Diagnostics

final class PrintTelemetry: InjectionTelemetry {
  func record(_ event: InjectionEvent) { print(event) }
}
// "Injection<Service> (ServicePackage/Services.swift:12): built by the published layer,
//  for App/Screen.swift:8"

/// Compiled, not run: installing a telemetry would reach the tests running beside these.
@MainActor func installPrintTelemetry() {
  installTelemetry(PrintTelemetry())
}
