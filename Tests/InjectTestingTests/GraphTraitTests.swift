import Inject
import InjectTesting
import TestSupport
import Testing

/// The traits isolate tests over a three-level graph.
///
/// A `.singleton` repository's factory reads a `.shared` session, whose factory reads the
/// client the tests override. The tests run in
/// parallel and read through the repository across suspension points; each must see only its
/// own client, whatever ran before it or runs beside it.
@Suite struct GraphTraitTests {
  @Test(.overriding(liveClient, with: Client("mock A")))
  func nonisolatedTestSeesItsOwnClientThroughTheRepository() async throws {
    try await expectReads("mock A")
  }

  @Test(.overriding(liveClient, with: Client("mock B")))
  @MainActor func mainActorTestSeesItsOwnClientThroughTheRepository() async throws {
    try await expectReads("mock B")
  }

  @Test(.overriding(liveClient, with: { Client("logged \($0.name)") }))
  func decoratingTraitDecoratesTheLiveClientBeneathTheRepository() async throws {
    try await expectReads("logged live")
  }

  @Test(.timeLimit(.minutes(4)), .isolatedInjections)
  func isolatedTestBuildsTheLiveGraphInItsOwnWorld() async throws {
    let repository = try await expectReads("live")
    let global = await Task.detached { await MainActor.run { Screen().repository } }.value
    #expect(repository !== global)
  }

  /// In a process of its own: in the test process, a global rollback by a test beside this one
  /// drops what the global world stored since its push, as it must, and the next read builds a
  /// new repository.
  @Test(.timeLimit(.minutes(4))) func testWithoutATraitSeesTheLiveClient() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let first = await MainActor.run { Screen().repository }
      for _ in 0..<5 {
        try? await Task.sleep(for: .milliseconds(2))
        let repository = await MainActor.run { Screen().repository }
        precondition(repository === first, "a new repository")
        precondition(repository.session.client.name == "live", "not the live client")
      }
    }
  }
}

/// Reads the graph from new screens on the main actor, suspending in between; expects `name`
/// through the repository and one repository throughout, and returns it.
@discardableResult
private func expectReads(_ name: String) async throws -> Repository {
  let first = await MainActor.run { Screen().repository }
  for _ in 0..<5 {
    try await Task.sleep(for: .milliseconds(2))
    let repository = await MainActor.run { Screen().repository }
    #expect(repository === first)
    #expect(repository.session.client.name == name)
  }
  return first
}

final class Client: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

final class Session: Sendable {
  let client: Client
  init(client: Client) { self.client = client }
}

final class Repository: Sendable {
  let session: Session
  init(session: Session) { self.session = session }
}

private let liveClient: Injection<Client> = Injection(strategy: .singleton, instance: Client("live"))
private let liveSession: Injection<Session> = Injection(strategy: .shared, instance: Session(client: Reader().client))
private let liveRepository: Injection<Repository> = Injection(
  strategy: .singleton, instance: Repository(session: Reader().session))

private final class Reader {
  @Instance(liveClient) var client: Client
  @Instance(liveSession) var session: Session
}

private final class Screen {
  @Instance(liveRepository) var repository: Repository
}
