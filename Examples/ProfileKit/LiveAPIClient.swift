/// The client the app ships with.
///
/// It stands in for an HTTP client, so that the example runs offline: it answers from a table of
/// users after a short delay, as a server would.
public struct LiveAPIClient: APIClient {
  private static let users = [1: User(id: 1, name: "Ada Lovelace", bio: "Wrote the first program.")]

  /// A client of the server.
  public init() {}

  /// Fetches a user's profile from the server.
  ///
  /// - Parameter id: The user's identifier.
  /// - Returns: The user's profile.
  /// - Throws: ``APIError/notFound(id:)`` if there is no such user.
  public func fetchUser(id: Int) async throws -> User {
    try await Task.sleep(for: .milliseconds(20))
    guard let user = Self.users[id] else { throw APIError.notFound(id: id) }
    return user
  }
}
