import Inject
import InjectTesting
import Testing

/// The one-line check of a test's graph: an issue for each lifetime bug, none for a sound graph.
@Suite @MainActor struct LifetimeCheckTests {
  @Test func aCaptiveSharedInstanceIsRecordedAsAnIssue() {
    withIsolatedInjections {
      let session = Injection<Session>(strategy: .shared, instance: Session(client: Client("live")))
      let repository = Injection<Holder<Session>>(strategy: .singleton, instance: Holder(session))
      let screen = Holder(repository)
      _ = screen.held.held
      var passed = true
      withKnownIssue {
        passed = expectNoLifetimeProblems(roots: [screen])
      } matching: { issue in
        issue.comments.first?.rawValue.hasPrefix("Captive dependency: Injection<Holder<Session>> (.singleton") == true
      }
      #expect(!passed)
    }
  }

  /// The trait checks the graph after the test, when the test's locals are gone: the
  /// injections are globals, as in an app, so the world still holds the repository.
  @Test(.isolatedInjections(checkingGraph: true))
  func aSoundGraphPassesTheTraitsCheck() {
    _ = Holder(soundRepository).held.held
    #expect(InjectionGraph.capture().nodes.map(\.strategy) == [.singleton, .onDemand])
  }
}

/// A consumer of an injection chosen at run time.
private final class Holder<T> {
  @Instance var held: T

  init(_ injection: Injection<T>) {
    _held = Instance(injection)
  }
}

private let soundSession = Injection<Session>(strategy: .onDemand, instance: Session(client: Client("live")))
private let soundRepository = Injection<Holder<Session>>(strategy: .singleton, instance: Holder(soundSession))
