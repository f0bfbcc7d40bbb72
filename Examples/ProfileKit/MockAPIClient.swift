/// A client that answers from the users it is given and records what it was asked, for
/// previews, demo launches and tests.
///
/// An actor, so that it can record requests and still be `Sendable`.
public actor MockAPIClient: APIClient {
  private let users: [Int: User]

  /// The identifiers of the users fetched so far, in order.
  public private(set) var requests: [Int] = []

  /// A client that knows `users` and no one else.
  ///
  /// - Parameter users: The users the client answers with.
  public init(users: [User] = [.sample]) {
    self.users = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// Records the request and answers it.
  ///
  /// - Parameter id: The user's identifier.
  /// - Returns: The user with this identifier.
  /// - Throws: ``APIError/notFound(id:)`` if the client was not given this user.
  public func fetchUser(id: Int) async throws -> User {
    requests.append(id)
    guard let user = users[id] else { throw APIError.notFound(id: id) }
    return user
  }
}
