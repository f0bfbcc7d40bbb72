import Inject
import InjectTesting
import Testing

/// The lifetime checks see what an actor's `@SendableInstance` properties hold, once the actor
/// has read them, as they see a class's `@Instance` properties: captives, cycles, the walk through
/// what they hold, and the holder a session survivor names.
@Suite(.misusesOnPurpose) @MainActor struct ActorGraphTests {
  @Test func aSingletonActorHoldingASharedInstanceIsACaptiveOnceItHasReadIt() async throws {
    try await withIsolatedInjections {
      let http = SendableInjection<HTTPClient>(
        strategy: .shared, instance: HTTPClient(), fileID: "App/HTTPClient.swift", line: 3)
      let engine = SendableInjection<SyncEngine>(
        strategy: .singleton, instance: SyncEngine(http), fileID: "App/SyncEngine.swift", line: 20)
      let actor = engine.resolve()

      let before = InjectionGraph.capture()
      #expect(before.errors.isEmpty, "not before it has read it")
      #expect(before.edges.map(\.isResolved) == [false])
      #expect(before.problems.map(\.kind) == [.neverResolved], "as a class's property that no one read")

      _ = await actor.http
      let graph = InjectionGraph.capture()
      let problem = try #require(graph.errors.first)
      #expect(graph.errors.count == 1)
      #expect(graph.problems.count == 1)
      #expect(problem.kind == .captiveDependency)
      #expect(problem.path.map(\.property) == ["http"])
      #expect(
        problem.message
          == "Captive dependency: SendableInjection<SyncEngine> (.singleton, published at App/SyncEngine.swift:20) "
          + "holds SendableInjection<HTTPClient> (.shared, published at App/HTTPClient.swift:3) through `http` at "
          + "App/SyncEngine.swift:5. The holder is kept for the life of its world, so the .shared instance of "
          + "SendableInjection<HTTPClient> is never released: a .singleton in disguise. To fix this, publish it with "
          + ".singleton if it should live that long, or give the holder a shorter lifetime (.shared or .onDemand), or "
          + "resolve the .shared instance only in a consumer that is released.")
    }
  }

  /// A `.session` actor that holds a `.shared` instance, and a `.singleton` actor that holds a
  /// `.session` one, are captives as the same classes are.
  @Test func sessionActorsHoldAndAreHeldCaptiveAsClassesAre() async throws {
    try await withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let http = SendableInjection<HTTPClient>(strategy: .shared, instance: HTTPClient())
      let engine = SendableInjection<SyncEngine>(strategy: .session(session), instance: SyncEngine(http))
      _ = await engine.resolve().http
      let sessionProblem = try #require(InjectionGraph.capture().errors.first)
      #expect(InjectionGraph.capture().errors.count == 1)
      #expect(sessionProblem.path.map(\.property) == ["http"])
      #expect(
        sessionProblem.message.hasPrefix(
          "Captive dependency: SendableInjection<SyncEngine> (.session(signed-in user), "))
      #expect(sessionProblem.message.contains("The holder is kept until its session (signed-in user) ends"))
    }
    try await withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let store = SendableInjection<HTTPClient>(strategy: .session(session), instance: HTTPClient())
      let engine = SendableInjection<SyncEngine>(strategy: .singleton, instance: SyncEngine(store))
      _ = await engine.resolve().http
      let problem = try #require(InjectionGraph.capture().errors.first)
      #expect(InjectionGraph.capture().errors.count == 1)
      #expect(problem.path.map(\.property) == ["http"])
      #expect(problem.message.contains("outlives its session"))
    }
  }

  /// The walk goes on through what an actor's consumers hold: a `.singleton` actor holds an
  /// `.onDemand` actor, which holds a `.shared` pool.
  @Test func theWalkFollowsThroughWhatAnActorsConsumersHold() async throws {
    try await withIsolatedInjections {
      let pool = SendableInjection<HTTPClient>(strategy: .shared, instance: HTTPClient())
      let database = SendableInjection<SyncEngine>(strategy: .onDemand, instance: SyncEngine(pool))
      let engine = SendableInjection<Outbox>(strategy: .singleton, instance: Outbox(database))
      _ = await engine.resolve().readPool()

      let graph = InjectionGraph.capture()
      #expect(graph.edges.map(\.property) == ["database", "http"])
      #expect(graph.edges.map(\.isResolved) == [true, true])
      let problem = try #require(graph.errors.first)
      #expect(graph.errors.count == 1)
      #expect(problem.kind == .captiveDependency)
      #expect(problem.path.map(\.property) == ["database", "http"])
    }
  }

  /// A `@SendableInstance` in a struct property of an actor is read as the actor's own; one in
  /// an optional, the actor's plain state, is not, as the Diagnostics article says.
  @Test func aConsumerInAnActorsStructPropertyIsReadAndOneInAnOptionalIsNot() async {
    await withIsolatedInjections {
      let http = SendableInjection<HTTPClient>(strategy: .shared, instance: HTTPClient())
      let uploader = SendableInjection<Uploader>(strategy: .singleton, instance: Uploader(http))
      await uploader.resolve().readBoth()
      let graph = InjectionGraph.capture()
      #expect(graph.edges.map(\.property) == ["clients.http"])
      #expect(graph.errors.map(\.kind) == [.captiveDependency])
    }
  }

  /// Two `.shared` actors that hold each other through `@SendableInstance` are never released.
  @Test func actorsInASharedCycleAreReported() async throws {
    try await withIsolatedInjections {
      let ping = pingInjection.resolve()
      let pong = await ping.pong
      _ = await pong.ping
      let problem = try #require(InjectionGraph.capture().errors.first)
      #expect(InjectionGraph.capture().errors.count == 1)
      #expect(problem.kind == .referenceCycle)
      #expect(Set(problem.path.map(\.property)) == ["ping", "pong"])
      #expect(problem.message.hasPrefix("Reference cycle: SendableInjection<P"))
      #expect(problem.message.contains("These .shared instances hold each other through @SendableInstance, so"))
      await ping.breakCycle()
      await pong.breakCycle()
      #expect(InjectionGraph.capture().errors.isEmpty)
    }
  }

  /// A session's instance that an actor's consumer still holds after the session ended names
  /// the actor and its property as the holder, as a class's `@Instance` would be named.
  @Test func aSessionSurvivorHeldByAnActorsConsumerNamesTheActorAndItsProperty() async throws {
    try await withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let store = SendableInjection<HTTPClient>(
        strategy: .session(session), instance: HTTPClient(), fileID: "App/Store.swift", line: 7)
      let engine = SendableInjection<SyncEngine>(
        strategy: .singleton, instance: SyncEngine(store), fileID: "App/SyncEngine.swift", line: 20)
      _ = await engine.resolve().http
      session.end()
      let endLine = #line - 1
      let survivor = try #require(session.survivors().first)
      #expect(session.survivors().count == 1)
      #expect(survivor.path.map(\.property) == ["http"])
      #expect(survivor.path.map(\.location) == ["App/SyncEngine.swift:5"])
      #expect(
        survivor.message
          == "HTTPClient (.session(signed-in user), published at App/Store.swift:7) is still alive after the session "
          + "ended at InjectTests/ActorGraphTests.swift:\(endLine): held by SyncEngine.http "
          + "(App/SyncEngine.swift:5), held by SendableInjection<SyncEngine> (.singleton, published at "
          + "App/SyncEngine.swift:20)")
    }
  }

  /// Capturing reads only what the actor's consumers published, never the actor's state: clean
  /// under ThreadSanitizer while other tasks read, reset and assign the actor's property.
  @Test(.timeLimit(.minutes(4))) func capturingWhileTasksCallTheActorIsRaceFree() async {
    await withIsolatedInjections {
      let http = SendableInjection<HTTPClient>(strategy: .shared, instance: HTTPClient())
      let engine = SendableInjection<SyncEngine>(strategy: .singleton, instance: SyncEngine(http))
      let actor = engine.resolve()
      let callers = (0..<3).map { caller in
        // Tasks of the test's world, on the actor's executor for each call.
        Task {
          for round in 0..<300 {
            switch (caller + round) % 3 {
            case 0: _ = await actor.http
            case 1: await actor.reset()
            default: await actor.assign(HTTPClient())
            }
          }
        }
      }
      for _ in 0..<100 {
        let graph = InjectionGraph.capture()
        #expect(graph.edges.map(\.property) == ["http"])
        // The actor holds the `.shared` client, a client of its own, or none, as it is now.
        #expect(graph.errors.allSatisfy { $0.kind == .captiveDependency && $0.path.map(\.property) == ["http"] })
        await Task.yield()
      }
      for caller in callers {
        await caller.value
      }
      await actor.reset()
      _ = await actor.http
      #expect(InjectionGraph.capture().errors.map(\.kind) == [.captiveDependency])
    }
  }
}

// MARK: - Fixtures

private final class HTTPClient: Sendable {}

/// An actor that consumes a client, declared at App/SyncEngine.swift:5 for its messages.
private actor SyncEngine {
  @SendableInstance var http: HTTPClient

  init(_ injection: SendableInjection<HTTPClient>) {
    _http = SendableInstance(injection, fileID: "App/SyncEngine.swift", line: 5)
  }

  func reset() { $http.reset() }
  func assign(_ client: HTTPClient) { http = client }
}

/// An actor that consumes another actor.
private actor Outbox {
  @SendableInstance var database: SyncEngine

  init(_ injection: SendableInjection<SyncEngine>) { _database = SendableInstance(injection) }

  func readPool() async -> HTTPClient { await database.http }
}

/// Consumers kept together in a struct.
private struct Clients {
  @SendableInstance var http: HTTPClient
  init(_ injection: SendableInjection<HTTPClient>) { _http = SendableInstance(injection) }
}

/// An actor that keeps consumers in a struct property and in an optional one.
private actor Uploader {
  let clients: Clients
  let spare: Clients?

  init(_ injection: SendableInjection<HTTPClient>) {
    clients = Clients(injection)
    spare = Clients(injection)
  }

  func readBoth() {
    _ = clients.http
    _ = spare?.http
  }
}

// Explicit types: each injection's type would otherwise depend on the other's. Only
// `actorsInASharedCycleAreReported` resolves them, in its own world.
private let pingInjection: SendableInjection<Ping> = SendableInjection(strategy: .shared, instance: Ping())
private let pongInjection: SendableInjection<Pong> = SendableInjection(strategy: .shared, instance: Pong())

private actor Ping {
  @SendableInstance(pongInjection) var pong
  func breakCycle() { $pong.reset() }
}

private actor Pong {
  @SendableInstance(pingInjection) var ping
  func breakCycle() { $ping.reset() }
}
