import Foundation
import Inject
import Testing

/// Lifetime checks and pictures that know sessions.
@Suite @MainActor struct SessionGraphTests {
  /// A consumer of one injection, chosen at run time.
  final class Holder<T> {
    @Instance var held: T
    init(_ injection: Injection<T>) { _held = Instance(injection) }
  }

  @Test func aSingletonHoldingASessionInstanceIsACaptive() throws {
    try withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
      let storeLine = #line - 1
      let settings = Injection<Holder<AccountStore>>(strategy: .singleton, instance: Holder(store))
      let settingsLine = #line - 1
      _ = Consumer(settings).service.held
      let problem = try #require(InjectionGraph.capture().errors.first)
      #expect(InjectionGraph.capture().errors.count == 1)
      #expect(problem.kind == .captiveDependency)
      #expect(problem.path.map(\.property) == ["held"])
      #expect(
        problem.message
          == "Captive dependency: Injection<Holder<AccountStore>> (.singleton, published at "
          + "InjectTests/SessionGraphTests.swift:\(settingsLine)) holds Injection<AccountStore> (.session(signed-in user), "
          + "published at InjectTests/SessionGraphTests.swift:\(storeLine)) through `held` at "
          + "InjectTests/SessionGraphTests.swift:10. The holder is kept for the life of its world, so the instance of "
          + "Injection<AccountStore> outlives its session: what it holds for the session (signed-in user) stays alive "
          + "after the session ends. To fix this, give the holder the session's lifetime (.session(signed-in user)) or "
          + "a shorter one (.shared or .onDemand), or resolve the session's instance only in a consumer that is "
          + "released with the session.")
    }
  }

  @Test func aSessionInstanceHoldingASharedOneIsACaptiveForTheSessionsLife() throws {
    try withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let sync = Injection<AccountStore>(strategy: .shared, instance: AccountStore(serial: 1))
      let store = Injection<Holder<AccountStore>>(strategy: .session(session), instance: Holder(sync))
      _ = Consumer(store).service.held
      let problem = try #require(InjectionGraph.capture().errors.first)
      #expect(InjectionGraph.capture().errors.count == 1)
      #expect(
        problem.message.hasPrefix("Captive dependency: Injection<Holder<AccountStore>> (.session(signed-in user), "))
      #expect(
        problem.message.contains(
          "The holder is kept until its session (signed-in user) ends, so the .shared instance of "
            + "Injection<AccountStore> is released only then: a .session in disguise. To fix this, publish it with "
            + ".session(signed-in user) if it should live that long"))
    }
  }

  @Test func aSessionInstanceHoldingOneOfAnySessionIsNoProblem() {
    withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let workspace = InjectionSession("workspace")
      let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
      let cache = Injection<Holder<AccountStore>>(strategy: .session(session), instance: Holder(store))
      let other = Injection<Holder<AccountStore>>(strategy: .session(workspace), instance: Holder(store))
      _ = Consumer(cache).service.held
      _ = Consumer(other).service.held
      #expect(InjectionGraph.capture().errors.isEmpty)
    }
  }

  @Test func picturesGroupEachSessionsInjections() {
    withIsolatedInjections {
      let session = InjectionSession("signed-in \"user\"")
      let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
      let cache = Injection<Holder<AccountStore>>(strategy: .session(session), instance: Holder(store))
      let screen = Holder(cache)
      _ = screen.held.held
      let graph = InjectionGraph.capture(roots: [screen])
      let mermaid = graph.mermaid.split(separator: "\n").map(String.init)
      #expect(mermaid[1] == "  n0([\"Holder#lt;Holder#lt;AccountStore#gt;#gt;\"])")
      #expect(mermaid[2] == "  subgraph session1[\"session: signed-in #quot;user#quot;\"]")
      #expect(mermaid[3].hasPrefix("    n1[\"Holder#lt;AccountStore#gt;<br/>.session(signed-in #quot;user#quot;), "))
      #expect(mermaid[4].hasPrefix("    n2[\"AccountStore<br/>.session(signed-in #quot;user#quot;), "))
      #expect(mermaid[5] == "  end")
      let dot = graph.dot.split(separator: "\n").map(String.init)
      #expect(dot[3] == "  subgraph cluster_session1 {")
      #expect(dot[4] == "    label=\"session: signed-in \\\"user\\\"\";")
      #expect(dot[5].hasPrefix("    n1 [label=\"Holder<AccountStore>\\n.session(signed-in \\\"user\\\"), "))
      #expect(dot[7] == "  }")
    }
  }

  @Test func aGraphWithASessionNodeRoundTripsThroughJSONByTheSessionsName() throws {
    try withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
      _ = Consumer(store).service
      let graph = InjectionGraph.capture()
      let decoded = try JSONDecoder().decode(InjectionGraph.self, from: JSONEncoder().encode(graph))
      guard case .session(let decodedSession)? = decoded.nodes.first?.strategy else {
        Issue.record("expected a session strategy in \(decoded.nodes)")
        return
      }
      #expect(decodedSession.name == "signed-in user")
      #expect(decodedSession != session, "sessions compare by identity: a decoded one is new")
      #expect(decoded.mermaid == graph.mermaid)
      let json = String(decoding: try JSONEncoder().encode(Strategy.session(session)), as: UTF8.self)
      #expect(json == #""session(signed-in user)""#)
      #expect(throws: DecodingError.self) {
        try JSONDecoder().decode(Strategy.self, from: Data(#""session(signed-in user""#.utf8))
      }
    }
  }

  @Test func aGraphWithoutSessionsDrawsAsBefore() {
    withIsolatedInjections {
      let shared = Injection<AccountStore>(strategy: .singleton, instance: AccountStore(serial: 1))
      _ = Consumer(shared).service
      #expect(!InjectionGraph.capture().mermaid.contains("subgraph"))
      #expect(!InjectionGraph.capture().dot.contains("cluster"))
    }
  }
}
