import Inject

/// The repository the app ships with: it fetches through the injected API client and caches
/// what it fetched.
///
/// Its factory, `LiveUserRepository()`, consumes another injection: the client, through
/// `@Instance`, resolved when the repository first needs it.
@MainActor
public final class LiveUserRepository: UserRepository {
  @Instance(apiClientInjection) private var apiClient
  private var users: [Int: User] = [:]

  /// A repository with an empty cache.
  public init() {}

  /// A user's profile, from the cache or else from the server.
  ///
  /// - Parameter id: The user's identifier.
  /// - Returns: The user's profile.
  /// - Throws: What the client throws.
  public func user(id: Int) async throws -> User {
    if let user = users[id] {
      return user
    }
    let user = try await apiClient.fetchUser(id: id)
    users[id] = user
    return user
  }

  /// A user's profile if it is in the cache.
  ///
  /// - Parameter id: The user's identifier.
  /// - Returns: The cached profile, or `nil`.
  public func cachedUser(id: Int) -> User? { users[id] }
}
