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
  /// The user that tests get: the only one the test client knows.
  public static let sample = User(id: 42, name: "Grace Hopper", bio: "Wrote the first compiler.")

  /// The app's first user as Xcode previews show it: the only one the preview client knows.
  public static let preview = User(id: 1, name: "Preview User", bio: "Served by the preview client.")

  /// The app's first user as a launch with `-mock-api` shows it: the only one the mock client
  /// of UI tests and demos knows.
  public static let demo = User(id: 1, name: "Mock User", bio: "Served by the mock client.")
}
