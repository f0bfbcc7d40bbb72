import Foundation
import Inject
import InjectTesting
import Testing

/// A client that actors and main-actor objects share.
private final class GraphClient: Sendable {}

/// Builds with a client resolved in its factory, and holds it.
private final class GraphRepository: Sendable {
  let client: GraphClient
  init(_ client: GraphClient) { self.client = client }
}

/// An actor that consumes a client through its own property.
private actor GraphLoader {
  @SendableInstance var client: GraphClient
  init(_ injection: SendableInjection<GraphClient>) { _client = SendableInstance(injection) }
  func touch() -> ObjectIdentifier { ObjectIdentifier(client) }
}

/// A main-actor consumer of a sendable injection.
@MainActor private final class GraphScreen {
  @SendableInstance var client: GraphClient
  init(_ injection: SendableInjection<GraphClient>) { _client = SendableInstance(injection) }
}

@Suite @MainActor struct SendableGraphTests {
  @Test func aMainActorConsumerOfASendableInjectionIsAnEdgeToASendableNode() {
    withIsolatedInjections {
      let client = SendableInjection<GraphClient>(strategy: .shared, instance: GraphClient())
      let screen = GraphScreen(client)
      let held = screen.client
      let graph = InjectionGraph.capture(roots: [screen])
      let node = graph.nodes.first { $0.kind == .injection }
      #expect(node?.isSendable == true)
      #expect(node?.type == "GraphClient")
      #expect(graph.edges.map(\.property) == ["client"])
      #expect(graph.edges.map(\.isResolved) == [true])
      #expect(graph.edges.map(\.kind) == [.property])
      #expect(graph.mermaid.contains(".shared, sendable, the published layer"))
      withExtendedLifetime(held) {}
    }
  }

  /// A singleton built with a `.shared` client that its factory resolved holds the client for
  /// the life of the world: the build's edge makes the captive visible, across kinds too.
  @Test(arguments: [false, true]) func aSingletonBuiltWithASharedClientHoldsItCaptiveThroughItsBuild(
    mainActorHolder: Bool
  ) throws {
    try withIsolatedInjections {
      let client = SendableInjection<GraphClient>(strategy: .shared, instance: GraphClient())
      let repository = SendableInjection<GraphRepository>(
        strategy: .singleton, instance: GraphRepository(client.resolve()))
      let screenRepository = Injection<GraphRepository>(
        strategy: .singleton, instance: GraphRepository(client.resolve()))
      let built = mainActorHolder ? screenRepository.resolve() : repository.resolve()
      let graph = InjectionGraph.capture()
      let buildEdges = graph.edges.filter { $0.kind == .build }
      #expect(buildEdges.count == 1)
      let edge = try #require(buildEdges.first)
      #expect(graph.nodes[edge.to].isSendable)
      #expect(graph.nodes[edge.from].isSendable == !mainActorHolder)
      #expect(graph.errors.map(\.kind) == [.captiveDependency])
      #expect(graph.errors.first?.path == [edge])
      withExtendedLifetime(built) {}
    }
  }

  /// What an override's factory resolved, in one world, is not taken for what the published
  /// factory resolved in another: build edges are noted by the layer that built.
  @Test func anOverridesBuildEdgesStayWithItsLayer() {
    let client = SendableInjection<GraphClient>(strategy: .shared, instance: GraphClient())
    let repository = SendableInjection<GraphRepository>(strategy: .singleton, instance: GraphRepository(GraphClient()))
    withIsolatedInjections {
      repository.withOverride(GraphRepository(client.resolve())) {
        let built = repository.resolve()
        #expect(InjectionGraph.capture().errors.map(\.kind) == [.captiveDependency])
        withExtendedLifetime(built) {}
      }
    }
    withIsolatedInjections {
      let held = (repository.resolve(), client.resolve())
      let graph = InjectionGraph.capture()
      #expect(graph.edges.filter { $0.kind == .build }.isEmpty)
      #expect(graph.errors.isEmpty)
      withExtendedLifetime(held) {}
    }
  }

  /// The graph reads what an actor's properties consume, and what they hold as their consumers
  /// published it, never the actor's state, which the actor may be writing: an edge is resolved
  /// once the actor has read it, as a class's is.
  ///
  /// Captured while the actor reads, over and over, under the thread sanitizer too.
  @Test(.timeLimit(.minutes(4))) func anActorsPropertiesAreEdgesResolvedOnceTheActorHasReadThem() async {
    await withIsolatedInjections {
      let client = SendableInjection<GraphClient>(strategy: .onDemand, instance: GraphClient())
      let loader = SendableInjection<GraphLoader>(strategy: .singleton, instance: GraphLoader(client))
      let actor = loader.resolve()
      let before = InjectionGraph.capture()
      #expect(before.edges.map(\.property) == ["client"])
      #expect(before.edges.map(\.isResolved) == [false])
      #expect(before.problems.map(\.kind) == [.neverResolved], "as a class's property that no one read")
      _ = await actor.touch()
      let work = Task.detached {
        for _ in 0..<2_000 {
          _ = await actor.touch()
        }
      }
      for _ in 0..<50 {
        let graph = InjectionGraph.capture()
        #expect(graph.edges.map(\.property) == ["client"])
        #expect(graph.edges.map(\.isResolved) == [true])
        #expect(graph.nodes.filter { $0.kind == .injection }.allSatisfy { $0.isSendable })
        #expect(graph.problems.isEmpty)
        await Task.yield()
      }
      await work.value
    }
  }

  @Test func aGraphEncodedBeforeSendableNodesAndBuildEdgesDecodes() throws {
    let json = """
      {"nodes":[{"id":0,"kind":"injection","type":"Client","strategy":"singleton",\
      "publishedAt":"App/Client.swift:3","builtBy":"the published layer","isResolved":true}],
      "edges":[{"from":0,"to":0,"property":"client","location":"App/Screen.swift:9","isResolved":true}],
      "problems":[]}
      """
    let graph = try JSONDecoder().decode(InjectionGraph.self, from: Data(json.utf8))
    #expect(graph.nodes.map(\.isSendable) == [false])
    #expect(graph.edges.map(\.kind) == [.property])
  }
}
