import Inject
import InjectTesting
import Testing

/// A global rollback through a dependency graph is exact.
///
/// No new consumer receives an instance
/// stored, in any injection, while a popped override was in place; instances stored before the
/// push keep their identity; consumers keep what they hold. Each test makes its own graph.
@Suite(.misusesOnPurpose) @MainActor struct GraphRollbackTests {
  @Test func rollbackRebuildsTheRepositoryThatWasBuiltWithTheMock() {
    let graph = Graph()
    weak var weakMock: MockAPI?
    weak var weakMockRepository: Repository?
    var screenDuringOverride: Screen? = Screen(graph)
    do {
      let mock = MockAPI("mock")
      weakMock = mock
      graph.api.override(with: mock)
    }
    weakMockRepository = screenDuringOverride?.repository
    #expect(weakMockRepository?.api.name == "mock")
    graph.api.rollbackOverride()
    let afterRollback = Screen(graph).repository
    #expect(afterRollback.api.name == "live")
    #expect(afterRollback !== weakMockRepository, "the repository built with the mock is built anew")
    #expect(screenDuringOverride?.repository === weakMockRepository, "a consumer keeps what it holds")
    #expect(graph.builds.repository == 2)
    #expect(graph.builds.session == 2)
    #expect(graph.builds.api == 1)
    screenDuringOverride = nil
    #expect(weakMockRepository == nil, "once its consumer is gone, nothing holds the mock's repository")
    #expect(weakMock == nil)
  }

  @Test func instancesStoredBeforeThePushKeepTheirIdentity() {
    let graph = Graph()
    let repository = Screen(graph).repository
    let api = Consumer(graph.api).service
    let mock = MockAPI("mock")
    graph.api.override(with: mock)
    #expect(Screen(graph).repository === repository, "a push does not rebuild existing dependents")
    #expect(Consumer(graph.api).service === mock)
    graph.api.rollbackOverride()
    #expect(Screen(graph).repository === repository)
    #expect(Consumer(graph.api).service === api)
    #expect(Consumer(graph.session).service === repository.session)
    #expect(graph.builds.repository == 1)
    #expect(graph.builds.session == 1)
    #expect(graph.builds.api == 1)
  }

  /// The `.singleton` repository over the `.shared` session over the overridden client: both
  /// levels built during the override are dropped, even while a consumer still holds the
  /// session.
  @Test func rollbackDropsBothLevelsBuiltOverTheOverride() {
    let graph = Graph()
    graph.api.override(with: MockAPI("mock"))
    let heldSession = Consumer(graph.session).service
    let repository = Screen(graph).repository
    #expect(repository.session === heldSession)
    graph.api.rollbackOverride()
    let newSession = Consumer(graph.session).service
    #expect(newSession !== heldSession, "a shared instance stored during the override is not handed out again")
    #expect(newSession.api.name == "live")
    #expect(Screen(graph).repository.session === newSession)
    #expect(heldSession.api.name == "mock", "its holder keeps it")
  }

  @Test func rollbackAllOverridesDropsWhatEveryPoppedLayerSaw() {
    let graph = Graph()
    let before = Screen(graph).repository
    graph.api.override(with: MockAPI("first"))
    graph.repository.override(with: { $0 }, strategy: .singleton)
    let decorated = Screen(graph).repository
    #expect(decorated !== before)
    graph.api.override(with: MockAPI("second"))
    #expect(Consumer(graph.api).service.name == "second")
    graph.api.rollbackAllOverrides()
    #expect(graph.api.overrideCount == 0)
    #expect(Consumer(graph.api).service.name == "live")
    graph.repository.rollbackOverride()
    #expect(Screen(graph).repository === before)
  }

  /// Epochs tell pushes apart: rolling back a later, unrelated override keeps what was stored
  /// before it, even if that was stored under an earlier override still in place.
  @Test func rollingBackALaterOverrideKeepsWhatWasStoredBeforeIt() {
    let graph = Graph()
    let (unrelated, _) = makeInjection(.singleton)
    graph.api.override(with: MockAPI("mock"))
    let repository = Screen(graph).repository
    unrelated.override(with: ServiceImplementation("unrelated"))
    let storedDuringBoth = Consumer(graph.session).service
    #expect(storedDuringBoth === repository.session)
    unrelated.rollbackOverride()
    #expect(Screen(graph).repository === repository)
    graph.api.rollbackOverride()
    #expect(Screen(graph).repository !== repository)
    #expect(Screen(graph).repository.api.name == "live")
  }

  @Test func rollbackOfAMiddleLevelOverrideRebuildsTheLevelAbove() {
    let graph = Graph()
    let mockSession = Session(api: MockAPI("session mock"))
    graph.session.override(with: mockSession, strategy: .singleton)
    #expect(Screen(graph).repository.session === mockSession)
    graph.session.rollbackOverride()
    let repository = Screen(graph).repository
    #expect(repository.session !== mockSession)
    #expect(repository.api === Consumer(graph.api).service)
  }
}
