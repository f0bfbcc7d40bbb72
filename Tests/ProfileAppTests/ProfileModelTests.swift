import Inject
import InjectTesting
import ProfileFeature
import ProfileKit
import Testing

// Each test gets a repository of its own, so that no test shares the app's `.shared` repository
// (and the client it resolved, with its cache) with another test running at the same time.
// Observation needs macOS 14, iOS 17, tvOS 17 or watchOS 10: each test says so, because Swift
// Testing takes `@available` on a test function but not on a suite.
@Suite(.overriding(userRepositoryInjection, with: LiveUserRepository()))
@MainActor struct ProfileModelTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(.overriding(apiClientInjection, with: MockAPIClient(users: [.sample])))
  func showsTheUserOnceLoaded() async {
    let view = ProfileView(model: ProfileModel(userID: User.sample.id))
    #expect(view.body == "Loading the profile of user 42…")
    await view.model.load()
    #expect(view.model.state == .loaded(.sample))
    #expect(view.body == "Grace Hopper: Wrote the first compiler.")
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(.overriding(apiClientInjection, with: MockAPIClient(users: [])))
  func showsWhyTheUserCouldNotBeLoaded() async {
    let view = ProfileView(model: ProfileModel(userID: 7))
    await view.model.load()
    #expect(view.model.state == .failed("no user with id 7"))
    #expect(view.body == "Could not load the profile: no user with id 7.")
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func screensOfOneUserShareOneRequest() async {
    let client = MockAPIClient(users: [.sample])
    await apiClientInjection.withOverride(client) {
      let first = ProfileModel(userID: User.sample.id)
      await first.load()
      let second = ProfileModel(userID: User.sample.id)
      await second.load()
      // Reading `first` here keeps it, and so the shared repository, alive until now.
      #expect(first.state == .loaded(.sample))
      #expect(second.state == .loaded(.sample))
    }
    #expect(await client.requests == [User.sample.id])
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aScreenAfterTheLastOneClosedFetchesAgain() async {
    let client = MockAPIClient(users: [.sample])
    await apiClientInjection.withOverride(client) {
      await ProfileModel(userID: User.sample.id).load()
      await ProfileModel(userID: User.sample.id).load()
    }
    #expect(await client.requests == [User.sample.id, User.sample.id])
  }
}
