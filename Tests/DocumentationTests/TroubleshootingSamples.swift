import Inject
import InjectTesting
import ProfileKit
import Testing

// The fixes of the Troubleshooting article that are not in the ProfileApp example, compiled and
// run. scripts/check-troubleshooting checks that its broken samples still fail as it says.

// MARK: An actor receives what it needs from the main actor

actor UserCache {
  private let apiClient: any APIClient
  private var users: [Int: User] = [:]

  init(apiClient: any APIClient) {
    self.apiClient = apiClient
  }

  func user(id: Int) async throws -> User {
    if let user = users[id] {
      return user
    }
    let user = try await apiClient.fetchUser(id: id)
    users[id] = user
    return user
  }
}

@MainActor final class GalleryModel {
  @Instance(apiClientInjection) private var apiClient
  lazy var userCache = UserCache(apiClient: apiClient)
}

// MARK: A body or async function that reads @Instance is main-actor isolated

@MainActor struct ProfileHeader {
  @Instance(userRepositoryInjection) var repository

  var body: String { repository.cachedUser(id: 1)?.name ?? "Loading…" }
}

@MainActor final class ProfileLoader {
  @Instance(userRepositoryInjection) var repository

  func load() async throws -> User {
    try await repository.user(id: 1)
  }
}

// MARK: A Sendable class resolves where it needs the instance; an actor keeps the wrapper

actor AvatarPrefetcher {
  @SendableInstance(avatarClientInjection) var avatarClient

  func prefetch(_ user: User) async throws {
    _ = try await avatarClient.avatar(of: user)
  }
}

final class AvatarWarmer: Sendable {
  private let avatarClient = avatarClientInjection.resolve()

  func warm(_ user: User) async throws {
    _ = try await avatarClient.avatar(of: user)
  }
}

@Suite @MainActor struct TroubleshootingSamples {
  @Test func anActorUsesTheClientItWasGivenOnTheMainActor() async throws {
    let client = MockAPIClient()
    let cache = apiClientInjection.withOverride(client) { GalleryModel().userCache }
    let fetched = try await cache.user(id: User.sample.id)
    let cached = try await cache.user(id: User.sample.id)
    #expect(fetched == .sample)
    #expect(cached == .sample)
    #expect(await client.requests == [User.sample.id])
  }

  @Test(.isolatedInjections) func anActorAndASendableClassConsumeASendableInjection() async throws {
    try await AvatarPrefetcher().prefetch(.sample)
    try await AvatarWarmer().warm(.sample)
    #expect(await AvatarPrefetcher().avatarClient is MockAvatarClient)
  }

  // A repository of this test's own: the published one is `.shared`, and another test could hold it.
  @Test(
    .timeLimit(.minutes(4)),
    .overriding(userRepositoryInjection, with: LiveUserRepository()),
    .overriding(apiClientInjection, with: MockAPIClient(users: [User(id: 1, name: "Ada", bio: "")])))
  func aMainActorBodyShowsWhatAMainActorLoaderLoaded() async throws {
    let header = ProfileHeader()
    #expect(header.body == "Loading…")
    let user = try await ProfileLoader().load()
    #expect(user.name == "Ada")
    #expect(header.body == "Ada", "the header and the loader share the repository and its cache")
  }
}

// MARK: A task group's main-actor child scope is a function of its own

@MainActor
func clientsInParallel() async -> [Bool] {
  await withTaskGroup(of: Bool.self) { group in
    for id in 1...3 {
      group.addTask { await readsItsOwnClient(id: id) }
    }
    var results: [Bool] = []
    for await result in group {
      results.append(result)
    }
    return results
  }
}

@MainActor
func readsItsOwnClient(id: Int) async -> Bool {
  let mock = MockAPIClient(users: [User(id: id, name: "Mock \(id)", bio: "")])
  return await apiClientInjection.withOverride(mock) {
    await Task.yield()
    return ClientReader().apiClient as AnyObject === mock
  }
}

@MainActor final class ClientReader {
  @Instance(apiClientInjection) var apiClient
}

@Suite @MainActor struct TaskGroupScopeTests {
  @Test func eachChildTaskReadsTheClientOfItsOwnScope() async {
    #expect(await clientsInParallel() == [true, true, true])
  }
}
