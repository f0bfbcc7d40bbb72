public import Inject

/// The server's API.
///
/// `Sendable`, because its methods are `nonisolated` and `async`: calling one from the main
/// actor sends the client off the main actor, which only a `Sendable` value may do.
public protocol APIClient: Sendable {
  /// Fetches a user's profile.
  ///
  /// - Parameter id: The user's identifier.
  /// - Returns: The user's profile.
  /// - Throws: ``APIError/notFound(id:)`` if there is no such user.
  func fetchUser(id: Int) async throws -> User
}

/// The API client: one for the life of the app.
///
/// Published injections are named after the dependency with an `Injection` suffix, so that a
/// consumer's property can take the dependency's own name:
/// `@Instance(apiClientInjection) var apiClient`.
public let apiClientInjection = Injection<any APIClient>(strategy: .singleton, instance: LiveAPIClient())
