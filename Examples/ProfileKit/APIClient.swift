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

/// The API client: one for the life of the app, or of each test.
///
/// What every context gets is declared here, beside the live client, so that no preview, test
/// or UI-test launch has to override it by hand:
/// - Xcode previews get a mock that knows ``User/preview``;
/// - tests get a mock that knows ``User/sample``, a new one in each test's world;
/// - a launch with the argument `-mock-api`, or with `MOCK_API=1` in the environment, gets a
///   mock that knows ``User/demo``: UI tests and demos need no network and no code of their own.
///
/// Published injections are named after the dependency with an `Injection` suffix, so that a
/// consumer's property can take the dependency's own name:
/// `@Instance(apiClientInjection) var apiClient`.
public let apiClientInjection = Injection<any APIClient>(
  strategy: .singleton,
  instance: LiveAPIClient(),
  preview: MockAPIClient(users: [.preview]),
  test: MockAPIClient(users: [.sample]),
  launchOverrides: [
    .argument("-mock-api", with: MockAPIClient(users: [.demo])),
    .environment("MOCK_API", with: MockAPIClient(users: [.demo])),
  ]
)
