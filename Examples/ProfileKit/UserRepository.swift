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

/// The repository: one while any screen holds it, so that open screens share its cache.
public let userRepositoryInjection = Injection<any UserRepository>(strategy: .shared, instance: LiveUserRepository())
