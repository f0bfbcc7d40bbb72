import Inject
import InjectTesting
import ProfileFeature
import ProfileKit
import Testing

// Each test runs in a test world of its own: it gets the client's test value (a mock that knows
// `User.sample`) unless it overrides it, and its own `.singleton` repository, built with that
// client, whatever the tests running beside it do. The suite is not strict, because the
// repository has no test value: the tests use the live repository over the test client.
// Observation needs macOS 14, iOS 17, tvOS 17 or watchOS 10: each test says so, because Swift
// Testing takes `@available` on a test function but not on a suite.
@Suite(.isolatedInjections)
@MainActor struct ProfileModelTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func showsTheUserOnceLoaded() async {
    let view = ProfileView(model: ProfileModel(userID: User.sample.id))
    #expect(view.body == "Loading the profile of user 42…")
    await view.model.load()
    #expect(view.model.state == .loaded(.sample))
    #expect(view.body == "Grace Hopper: Wrote the first compiler.")
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func loadsTheAvatarOffTheMainActorThroughTheTestClient() async {
    let view = ProfileView(model: ProfileModel(userID: User.sample.id))
    #expect(view.avatar == "No avatar yet.")
    await view.model.load()
    #expect(view.avatar == "Avatar: \(MockAvatarClient.avatar)")
  }

  /// The test's override reaches the avatar loader, an actor, which resolves its client on its
  /// own executor, in the test's world.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(.overriding(avatarClientInjection, with: NamedAvatarClient("[GH]")))
  func theAvatarLoaderActorGetsTheTestsOverride() async {
    let view = ProfileView(model: ProfileModel(userID: User.sample.id))
    await view.model.load()
    #expect(view.avatar == "Avatar: [GH]")
    #expect(await avatarLoaderInjection.resolve().loadedCount == 1)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func neverReachesTheLiveClient() async throws {
    // The live client knows user 1; the test client knows only `User.sample`.
    let model = ProfileModel(userID: 1)
    await model.load()
    #expect(model.state == .failed("no user with id 1"))
    #expect(try await Reader().mockClient().requests == [1])
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(.overriding(apiClientInjection, with: MockAPIClient(users: [])))
  func showsWhyTheUserCouldNotBeLoaded() async {
    // The override wins over the test value, which knows this user.
    let view = ProfileView(model: ProfileModel(userID: User.sample.id))
    await view.model.load()
    #expect(view.model.state == .failed("no user with id 42"))
    #expect(view.body == "Could not load the profile: no user with id 42.")
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func screensOfOneUserShareOneRequest() async {
    let client = MockAPIClient(users: [.sample])
    await apiClientInjection.withOverride(client) {
      let first = ProfileModel(userID: User.sample.id)
      await first.load()
      let second = ProfileModel(userID: User.sample.id)
      await second.load()
      #expect(first.state == .loaded(.sample))
      #expect(second.state == .loaded(.sample))
    }
    #expect(await client.requests == [User.sample.id])
  }

  // Run twice, and perhaps at the same time: each run must start from a repository with an
  // empty cache and a client that was asked nothing, though the repository is a `.singleton`.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(arguments: 1...2)
  func eachTestHasARepositoryAndAClientOfItsOwn(run: Int) async throws {
    let reader = Reader()
    #expect(reader.repository.cachedUser(id: User.sample.id) == nil)
    await ProfileModel(userID: User.sample.id).load()
    let again = ProfileModel(userID: User.sample.id)
    await again.load()
    #expect(again.state == .loaded(.sample))
    #expect(reader.repository.cachedUser(id: User.sample.id) == .sample)
    #expect(try await reader.mockClient().requests == [User.sample.id])
  }
}

/// Reads what the test's world resolves, as the screens' models do.
@MainActor private final class Reader {
  @Instance(userRepositoryInjection) var repository
  @Instance(apiClientInjection) var apiClient

  /// The test's client: the test value, a mock.
  func mockClient() throws -> MockAPIClient {
    try #require(apiClient as? MockAPIClient)
  }
}

/// An avatar client that draws every avatar as `avatar`.
private struct NamedAvatarClient: AvatarClient {
  let avatar: String
  init(_ avatar: String) { self.avatar = avatar }
  func avatar(of user: User) async throws -> String { avatar }
}
