import Inject
import InjectTesting
import ProfileKit
import Testing

@Suite @MainActor struct UserRepositoryTests {
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

  @Test(.overriding(apiClientInjection, with: MockAPIClient(users: [])))
  func throwsWhatTheClientThrows() async {
    await #expect(throws: APIError.notFound(id: 7)) {
      try await LiveUserRepository().user(id: 7)
    }
  }

  // The override gives this test a repository of its own: the published one is `.shared`, so
  // another test running at the same time could be holding it.
  @Test(.overriding(userRepositoryInjection, with: LiveUserRepository()))
  func isSharedWhileAScreenHoldsItAndReleasedAfterTheLast() {
    var screen: Screen? = Screen()
    weak let repository = screen?.repository
    #expect(repository != nil)
    #expect(Screen().repository === repository)
    screen = nil
    #expect(repository == nil)
  }
}

/// Consumes the repository, as a screen's model does.
@MainActor private final class Screen {
  @Instance(userRepositoryInjection) var repository
}
