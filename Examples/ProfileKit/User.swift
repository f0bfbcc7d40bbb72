/// A user's profile, as the server sends it.
public struct User: Sendable, Equatable, Identifiable {
  /// The user's identifier on the server.
  public let id: Int
  /// The name to show.
  public let name: String
  /// A line about the user.
  public let bio: String

  /// A profile.
  ///
  /// - Parameters:
  ///   - id: The user's identifier on the server.
  ///   - name: The name to show.
  ///   - bio: A line about the user.
  public init(id: Int, name: String, bio: String) {
    self.id = id
    self.name = name
    self.bio = bio
  }
}

extension User {
  /// A user for previews, demos and tests.
  public static let sample = User(id: 42, name: "Grace Hopper", bio: "Wrote the first compiler.")
}
