public import Inject

/// Where screens get users from: the server through the ``APIClient``, with a cache.
@MainActor
public protocol UserRepository: AnyObject {
  /// A user's profile, from the cache or else from the server.
  ///
  /// - Parameter id: The user's identifier.
  /// - Returns: The user's profile.
  /// - Throws: What the client throws.
  func user(id: Int) async throws -> User

  /// A user's profile if it is in the cache.
  ///
  /// - Parameter id: The user's identifier.
  /// - Returns: The cached profile, or `nil`.
  func cachedUser(id: Int) -> User?
}

/// The repository: one for the life of the app, so that every screen shares its cache; in tests,
/// one in each test's world, built with that test's client.
public let userRepositoryInjection = Injection<any UserRepository>(strategy: .singleton, instance: LiveUserRepository())
