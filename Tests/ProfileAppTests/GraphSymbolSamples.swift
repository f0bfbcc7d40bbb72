import Foundation
import Inject
import InjectTesting
import ProfileFeature
import ProfileKit
import Testing

// The samples of the `///` comments of InjectionGraph and the lifetime check, on the example's
// screen, compiled and run.
@Suite(.isolatedInjections)
@MainActor struct GraphSymbolSamples {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aCaptureOfAScreenListsItsNodesEdgesAndProblems() async {
    let model = ProfileModel(userID: User.sample.id)
    let graph = InjectionGraph.capture(roots: [model])
    // The samples' `print` writes here, which the test checks, not to the test's output.
    var printed = ""
    func print(_ items: Any...) { Swift.print(items.map { "\($0)" }.joined(separator: " "), to: &printed) }
    print(graph.mermaid)
    for problem in graph.problems {
      print(problem)
    }
    #expect(graph.problems.map(\.kind) == [.neverResolved, .neverResolved])
    for node in graph.nodes where node.kind == .injection {
      print(node.type, node.strategy.map { "\($0)" } ?? "", node.isResolved)
    }
    for edge in graph.edges where !edge.isResolved {
      print("\(edge.property) at \(edge.location) is not resolved yet")
    }
    #expect(graph.edges.map(\.isResolved) == [false, false])
    #expect(
      printed == """
        \(graph.mermaid)
        \(graph.problems.map { "\($0)\n" }.joined())\
        UserRepository singleton false
        AvatarLoader singleton false
        repository at ProfileFeature/ProfileModel.swift:38 is not resolved yet
        avatarLoader at ProfileFeature/ProfileModel.swift:49 is not resolved yet

        """)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aLoadedScreenDrawsItsGraph() async throws {
    let model = ProfileModel(userID: User.sample.id)
    await model.load()
    // The samples' `print` writes here, which the test checks, not to the test's output.
    var printed = ""
    func print(_ items: Any...) { Swift.print(items.map { "\($0)" }.joined(separator: " "), to: &printed) }
    print(InjectionGraph.capture(roots: [model]).mermaid)
    // graph TD
    //   n0(["ProfileModel"])
    //   n1["UserRepository<br/>.singleton, the published layer<br/>ProfileKit/UserRepository.swift:22"]
    //   n2["APIClient<br/>.singleton, the test value<br/>ProfileKit/APIClient.swift:28"]
    //   n3["AvatarLoader<br/>.singleton, sendable, the published layer<br/>ProfileKit/AvatarLoader.swift:34"]
    //   n4["AvatarClient<br/>.singleton, sendable, the test value<br/>ProfileKit/AvatarClient.swift:50"]
    //   n0 -->|"repository<br/>ProfileFeature/ProfileModel.swift:38"| n1
    //   n0 -->|"avatarLoader<br/>ProfileFeature/ProfileModel.swift:49"| n3
    //   n1 -->|"apiClient<br/>ProfileKit/LiveUserRepository.swift:10"| n2
    //   n3 -->|"client<br/>ProfileKit/AvatarLoader.swift:10"| n4
    #expect(
      InjectionGraph.capture(roots: [model]).mermaid == """
        graph TD
          n0(["ProfileModel"])
          n1["UserRepository<br/>.singleton, the published layer<br/>ProfileKit/UserRepository.swift:22"]
          n2["APIClient<br/>.singleton, the test value<br/>ProfileKit/APIClient.swift:28"]
          n3["AvatarLoader<br/>.singleton, sendable, the published layer<br/>ProfileKit/AvatarLoader.swift:34"]
          n4["AvatarClient<br/>.singleton, sendable, the test value<br/>ProfileKit/AvatarClient.swift:50"]
          n0 -->|"repository<br/>ProfileFeature/ProfileModel.swift:38"| n1
          n0 -->|"avatarLoader<br/>ProfileFeature/ProfileModel.swift:49"| n3
          n1 -->|"apiClient<br/>ProfileKit/LiveUserRepository.swift:10"| n2
          n3 -->|"client<br/>ProfileKit/AvatarLoader.swift:10"| n4
        """)
    let dot = InjectionGraph.capture(roots: [model]).dot
    #expect(dot.hasPrefix("digraph"))
    for problem in InjectionGraph.capture().errors {
      print(problem)
    }
    #expect(InjectionGraph.capture().errors.isEmpty)
    // The graph, and no error.
    #expect(printed == InjectionGraph.capture(roots: [model]).mermaid + "\n")
  }

  @Test func anEmptyGraphHasNoProblem() {
    let graph = InjectionGraph(nodes: [], edges: [], problems: [])
    #expect(graph.mermaid == "graph TD")
  }

  @Test func aStrategyIsCodedAsItsName() throws {
    let strategy = try JSONDecoder().decode(Strategy.self, from: Data(#""shared""#.utf8))
    let data = try JSONEncoder().encode(Strategy.singleton)  // "singleton"
    #expect(strategy == .shared)
    #expect(String(decoding: data, as: UTF8.self) == #""singleton""#)
  }
}

@Suite struct LifetimeCheckSamples {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(.isolatedInjections) @MainActor func screenGraphHasNoLifetimeBug() async {
    let model = ProfileModel(userID: 42)
    await model.load()
    #expect(InjectionGraph.capture(roots: [model]).errors.isEmpty)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test(.isolatedInjections) @MainActor func theAppHasNoLifetimeBug() async {
    let profile = ProfileView(model: ProfileModel(userID: User.sample.id))
    await profile.model.load()
    expectNoLifetimeProblems(roots: [profile.model])
  }
}
