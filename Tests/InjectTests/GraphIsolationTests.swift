import Inject
import Testing

/// Parallel cases over one global three-level graph each see only their own client.
///
/// Each case overrides the client at the bottom differently (or not at all), and reads through
/// the repository at the top across suspension points, so that the cases interleave. Each case must see only its own client, a case
/// without an override the live one, whatever ran before it or runs beside it.
///
/// Nothing pushes a global override on this graph: the scopes are all there is.
@Suite struct GraphIsolationTests {
  @Test(arguments: 0..<24)
  func nonisolatedCasesSeeOnlyTheirOwnClientThroughTheRepository(index: Int) async throws {
    guard let name = mockName(index) else {
      _ = try await readsThroughTheGraph(expecting: "live")
      return
    }
    _ = try await sharedGraph.api.withOverride(MockAPI(name)) {
      try await readsThroughTheGraph(expecting: name)
    }
  }

  @Test(.timeLimit(.minutes(4)), arguments: 0..<24)
  func withIsolatedInjectionsBuildsTheLiveGraphAnew(index: Int) async throws {
    let global = await Task.detached { await MainActor.run { Screen(sharedGraph).repository } }.value
    try await withIsolatedInjections {
      let scoped = try await readsThroughTheGraph(expecting: "live")
      #expect(scoped !== global, "a fresh world builds its own repository")
      #expect(scoped.api !== global.api)
    }
  }

  @Suite @MainActor struct OnTheMainActor {
    @Test(.timeLimit(.minutes(4)), arguments: 0..<24)
    func mainActorCasesSeeOnlyTheirOwnClientThroughTheRepository(index: Int) async throws {
      guard let name = mockName(index) else {
        return try await readsOnTheMainActor(expecting: "live")
      }
      try await sharedGraph.api.withOverride(MockAPI(name)) {
        try await readsOnTheMainActor(expecting: name)
        let global = await Task.detached { await MainActor.run { Screen(sharedGraph).repository } }.value
        #expect(global.api.name == "live", "a detached task resolves in the global world")
      }
    }
  }
}

private let sharedGraph = Graph()

/// The mock of case `index`, or `nil` for every sixth case, which runs with no override.
private func mockName(_ index: Int) -> String? {
  index.isMultiple(of: 6) ? nil : "mock \(index)"
}

/// Reads the graph from new screens and returns the repository.
///
/// Hops to the main actor for each read and suspends in between; expects the client `name`
/// through the repository, and one repository throughout.
private func readsThroughTheGraph(expecting name: String) async throws -> Repository {
  let first = await MainActor.run { Screen(sharedGraph).repository }
  for _ in 0..<4 {
    try await Task.sleep(for: .milliseconds(1))
    let (repository, direct) = await MainActor.run {
      (Screen(sharedGraph).repository, Consumer(sharedGraph.api).service)
    }
    #expect(repository === first)
    #expect(repository.api.name == name)
    #expect(repository.api === direct, "the repository holds the client this world resolves")
  }
  return first
}

/// ``readsThroughTheGraph(expecting:)`` for a caller on the main actor.
@MainActor
private func readsOnTheMainActor(expecting name: String) async throws {
  let first = Screen(sharedGraph).repository
  for _ in 0..<4 {
    try await Task.sleep(for: .milliseconds(1))
    let repository = Screen(sharedGraph).repository
    #expect(repository === first)
    #expect(repository.api.name == name)
    #expect(repository.api === Consumer(sharedGraph.api).service)
    #expect(repository.session === Consumer(sharedGraph.session).service)
  }
}
