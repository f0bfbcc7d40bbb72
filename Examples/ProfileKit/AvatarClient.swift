public import Inject

/// The image server's API: a user's avatar, which an app draws and caches off the main actor.
public protocol AvatarClient: Sendable {
  /// Fetches the avatar of `user`.
  ///
  /// - Parameter user: The user whose avatar to fetch.
  /// - Returns: The avatar, here as text art.
  /// - Throws: An error of the image server.
  func avatar(of user: User) async throws -> String
}

/// The client the app ships with: it stands in for an image server, answering after a short
/// delay, so that the example runs offline.
public struct LiveAvatarClient: AvatarClient {
  /// A client of the image server.
  public init() {}

  /// Fetches the avatar of `user` from the image server.
  ///
  /// - Parameter user: The user whose avatar to fetch.
  /// - Returns: The user's initials in a frame.
  /// - Throws: `CancellationError` if the task is cancelled.
  public func avatar(of user: User) async throws -> String {
    try await Task.sleep(for: .milliseconds(10))
    return "[\(user.name.split(separator: " ").compactMap(\.first).map(String.init).joined())]"
  }
}

/// A client that draws every avatar the same, for previews, tests and demo launches.
public struct MockAvatarClient: AvatarClient {
  /// A client that answers with ``avatar``.
  public init() {}

  /// What every avatar is.
  public static let avatar = "[mock]"

  /// Answers at once.
  ///
  /// - Parameter user: The user whose avatar to fetch.
  /// - Returns: ``avatar``.
  /// - Throws: Nothing; the requirement may.
  public func avatar(of user: User) async throws -> String { Self.avatar }
}

/// The avatar client, for any isolation: the avatar loader, an actor, consumes it.
///
/// A `SendableInjection`, since its consumer is not on the main actor; with the same preview,
/// test and launch values as the API client.
public let avatarClientInjection = SendableInjection<any AvatarClient>(
  strategy: .singleton,
  instance: LiveAvatarClient(),
  preview: MockAvatarClient(),
  test: MockAvatarClient(),
  launchOverrides: [
    .argument("-mock-api", with: MockAvatarClient()),
    .environment("MOCK_API", with: MockAvatarClient()),
  ]
)
