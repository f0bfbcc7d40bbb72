import Inject
import InjectTesting
import Testing

// The Diagnostics article's dependency-graph samples: a captive dependency, a reference cycle
// between two injections whose consumers reference each other (with the explicit global types
// that they need), and the checks that find them.

/// Held by every screen of the sign-in flow, released when none is on screen.
final class SignInFlow {}
let signInFlowInjection = Injection<SignInFlow>(strategy: .shared, instance: SignInFlow())

/// Lives as long as the app, and holds the flow for ever: a captive dependency.
@MainActor final class AccountStore {
  @Instance(signInFlowInjection) var signInFlow
}
let accountStoreInjection = Injection<AccountStore>(strategy: .singleton, instance: AccountStore())

@MainActor final class Player {
  @Instance(playlistInjection) var playlist
}

@MainActor final class Playlist {
  @Instance(playerInjection) var player
}

// Explicit types: each injection's type would otherwise depend on the other's.
let playerInjection: Injection<Player> = Injection(strategy: .shared, instance: Player())
let playlistInjection: Injection<Playlist> = Injection(strategy: .shared, instance: Playlist())

@Suite(.isolatedInjections)
@MainActor struct GraphSamples {
  @Test func theCaptiveSignInFlowIsFound() {
    _ = Reader().store.signInFlow
    let problems = InjectionGraph.capture().errors
    #expect(problems.map(\.kind) == [.captiveDependency])
    // The message the Diagnostics article quotes.
    #expect(
      problems.first?.message
        == "Captive dependency: Injection<AccountStore> (.singleton, published at "
        + "DocumentationTests/GraphSamples.swift:17) holds Injection<SignInFlow> (.shared, published at "
        + "DocumentationTests/GraphSamples.swift:11) through `signInFlow` at "
        + "DocumentationTests/GraphSamples.swift:15. The holder is kept for the life of its world, so "
        + "the .shared instance of Injection<SignInFlow> is never released: a .singleton in disguise. "
        + "To fix this, publish it with .singleton if it should live that long, or give the holder a "
        + "shorter lifetime (.shared or .onDemand), or resolve the .shared instance only in a consumer "
        + "that is released.")
  }

  /// The picture of the captive sample, which the Diagnostics article quotes: the problem's
  /// edge is red.
  @Test func theCaptiveEdgeIsDrawnRed() {
    _ = Reader().store.signInFlow
    let graph = InjectionGraph.capture()
    #expect(
      graph.mermaid == """
        graph TD
          n0["AccountStore<br/>.singleton, the published layer<br/>DocumentationTests/GraphSamples.swift:17"]
          n1["SignInFlow<br/>.shared, the published layer<br/>DocumentationTests/GraphSamples.swift:11"]
          n0 -->|"signInFlow<br/>DocumentationTests/GraphSamples.swift:15"| n1
          linkStyle 0 stroke:#d00,stroke-width:2px
        """)
    #expect(
      graph.dot.contains(
        #"  n0 -> n1 [label="signInFlow\nDocumentationTests/GraphSamples.swift:15", color=red];"#))
  }

  @Test func thePlayerAndPlaylistCycleIsFound() {
    let player = Reader().player
    let playlist = player.playlist
    #expect(playlist.player === player)
    #expect(InjectionGraph.capture().errors.map(\.kind) == [.referenceCycle])
    // Breaks the cycle, so that the test leaks nothing.
    playlist.$player.reset()
  }

  @Test func aScreenThatHoldsTheFlowIsNoProblem() {
    let store = AccountStore()
    _ = store.signInFlow
    let graph = InjectionGraph.capture(roots: [store])
    #expect(graph.errors.isEmpty)
    #expect(graph.mermaid.contains("n0 -->|\"signInFlow<br/>DocumentationTests/GraphSamples.swift:"))
  }
}

/// Reads the samples' injections, as a screen would.
@MainActor private final class Reader {
  @Instance(accountStoreInjection) var store
  @Instance(playerInjection) var player
}

/// A suite whose trait checks every test's graph, and a test that expects a problem: it checks
/// inside `withKnownIssue`, and the trait's check after the test, where nothing could expect it,
/// does not record the problem again.
@Suite(.isolatedInjections(checkingGraph: true))
@MainActor struct CheckedGraphSamples {
  @Test func aProblemTheTestExpectsIsNotRecordedAgainAfterIt() {
    let screen = Reader()
    _ = screen.store.signInFlow
    withKnownIssue("the account store keeps the sign-in flow for the app's life") {
      expectNoLifetimeProblems(roots: [screen])
    }
  }
}
