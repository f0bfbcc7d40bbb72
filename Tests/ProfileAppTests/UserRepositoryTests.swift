import Inject
import InjectTesting
import ProfileKit
import Testing

// Strict: a test that resolves an injection with neither a test value nor an override in the
// test fails, so that no test reaches the live server by accident. The repository is built
// directly, and the client it resolves has a test value.
@Suite(.isolatedInjections(strict: true))
@MainActor struct UserRepositoryTests {
  @Test func fetchesThroughTheInjectedClientOncePerUser() async throws {
    let client = MockAPIClient(users: [.sample])
    try await apiClientInjection.withOverride(client) {
      let repository = LiveUserRepository()
      #expect(repository.cachedUser(id: User.sample.id) == nil)
      let fetched = try await repository.user(id: User.sample.id)
      let cached = try await repository.user(id: User.sample.id)
      #expect(fetched == .sample)
      #expect(cached == .sample)
      #expect(repository.cachedUser(id: User.sample.id) == .sample)
    }
    #expect(await client.requests == [User.sample.id])
  }

  @Test func fetchesFromTheTestClientWithNoOverride() async throws {
    let repository = LiveUserRepository()
    #expect(try await repository.user(id: User.sample.id) == .sample)
    let client = try #require(TestClient().apiClient as? MockAPIClient, "the test value is the mock")
    #expect(await client.requests == [User.sample.id], "the repository's client is the test's, not another")
  }

  @Test(.overriding(apiClientInjection, with: MockAPIClient(users: [])))
  func throwsWhatTheClientThrows() async {
    await #expect(throws: APIError.notFound(id: User.sample.id)) {
      try await LiveUserRepository().user(id: User.sample.id)
    }
  }
}

/// Reads the test's client, as the repository does.
@MainActor private final class TestClient {
  @Instance(apiClientInjection) var apiClient
}
