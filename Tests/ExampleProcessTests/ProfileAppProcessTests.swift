#if os(macOS) || os(Linux)
import Testing

/// The example app, launched as a real process, picks its API client from how it was launched,
/// with no code of its own: the live client by default, the mock client for the launch argument
/// `-mock-api` or the environment variable `MOCK_API`, the preview client in an Xcode preview
/// process.
@Suite(.timeLimit(.minutes(4))) struct ProfileAppProcessTests {
  @Test func withoutArgumentsTheAppShowsTheLiveUser() throws {
    #expect(try launch() == screens(showing: "Ada Lovelace: Wrote the first program.", avatar: "[AL]"))
  }

  @Test func theLaunchArgumentGivesTheMockClient() throws {
    #expect(
      try launch(arguments: ["-mock-api"])
        == screens(showing: "Mock User: Served by the mock client.", avatar: "[mock]"))
  }

  @Test func theEnvironmentVariableGivesTheMockClient() throws {
    #expect(
      try launch(environment: ["MOCK_API": "1"])
        == screens(showing: "Mock User: Served by the mock client.", avatar: "[mock]"))
  }

  @Test func theEnvironmentVariableSetToZeroChangesNothing() throws {
    #expect(
      try launch(environment: ["MOCK_API": "0"])
        == screens(showing: "Ada Lovelace: Wrote the first program.", avatar: "[AL]"))
  }

  @Test func aPreviewProcessGetsThePreviewClient() throws {
    #expect(
      try launch(environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"])
        == screens(showing: "Preview User: Served by the preview client.", avatar: "[mock]"))
  }

  @Test func theGraphArgumentPrintsTheDependencyGraph() throws {
    let graph = try launch(arguments: ["--graph"])
    #expect(graph.hasPrefix("graph TD\n  n0([\"ProfileModel\"])\n"))
    #expect(graph.contains("n1 -->|\"apiClient<br/>ProfileKit/LiveUserRepository.swift:"))
    // The avatar loader, an actor: its property is resolved, as it published once it had read it.
    #expect(graph.contains("n3 -->|\"client<br/>ProfileKit/AvatarLoader.swift:"))
  }

  @Test func signingOutReleasesTheFirstUsersAccountAndTheNextSignInStartsAfresh() throws {
    #expect(
      try launch(arguments: ["--sign-out"]) == """
        Signed in as Grace Hopper.
        Signed out: no instance of the first session survived.
        Nobody is signed in.
        Signed in as Mock User.

        """)
  }

  @Test func theLaunchOverrideWinsInAPreviewProcess() throws {
    #expect(
      try launch(arguments: ["-mock-api"], environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"])
        == screens(showing: "Mock User: Served by the mock client.", avatar: "[mock]"))
  }
}

/// What the app prints when the client knows user 1 as `user`, whose avatar the avatar client
/// draws as `avatar` (the second screen reads the repository's cache), and does not know user 7.
private func screens(showing user: String, avatar: String) -> String {
  """
  Loading the profile of user 1…
  \(user)
  Avatar: \(avatar)
  \(user)
  Could not load the profile: no user with id 7.

  """
}

/// Runs the built `ProfileApp` with `arguments` and `environment` (added to this process's,
/// without the variables the app reacts to), and returns what it printed; the app uses Inject
/// as intended, so it is warned about nothing.
private func launch(arguments: [String] = [], environment: [String: String] = [:]) throws -> String {
  let (output, error) = try run("ProfileApp", arguments: arguments, environment: environment)
  #expect(!error.contains("Inject warning"))
  return output
}
#endif
