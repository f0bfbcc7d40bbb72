import Inject
import InjectTesting
import ProfileFeature
import ProfileKit
import Testing

// The whole app's graph, checked in one test from its root objects: the screens the app shows,
// loaded as the app loads them. The test's world holds every `.singleton` and `.shared`
// instance they resolved; the roots add the consumers that no injection built.
@Suite(.isolatedInjections)
@MainActor struct AppGraphTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func theAppsGraphHasNoLifetimeBug() async {
    let profile = ProfileView(model: ProfileModel(userID: User.sample.id))
    await profile.model.load()
    expectNoLifetimeProblems(roots: [profile.model])
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func theGraphShowsWhichLayerBuiltEachInstance() async {
    let profile = ProfileView(model: ProfileModel(userID: User.sample.id))
    await profile.model.load()
    let graph = InjectionGraph.capture(roots: [profile.model])
    #expect(graph.errors.isEmpty)
    // In a test world the clients are the published test values; the repository and the avatar
    // loader have none.
    #expect(
      graph.nodes.map(\.builtBy) == [
        nil, "the published layer", "the test value", "the published layer", "the test value",
      ])
    #expect(graph.nodes.map(\.isSendable) == [false, false, false, true, true])
    #expect(graph.edges.map(\.property) == ["repository", "avatarLoader", "apiClient", "client"])
    // The avatar loader is an actor: its property is resolved once the loader has read it, which
    // the graph learns from what the property published, never from the actor's state.
    #expect(graph.edges.map(\.isResolved) == [true, true, true, true])
  }
}
