import Inject

/// The client the graph's bottom level publishes: a class, so `===` and `weak` tell instances
/// apart.
protocol API: AnyObject, Sendable {
  var name: String { get }
}

/// The implementation the graph publishes.
final class LiveAPI: API {
  let name = "live"
}

/// A replacement a test overrides the client with.
final class MockAPI: API {
  let name: String
  init(_ name: String) { self.name = name }
}

/// The middle level: holds the client it was built with.
final class Session: Sendable {
  let api: any API
  init(api: any API) { self.api = api }
}

/// The top level: holds the session it was built with.
final class Repository: Sendable {
  let session: Session
  init(session: Session) { self.session = session }
  /// The client this repository reaches, through its session.
  var api: any API { session.api }
}

/// A three-level dependency graph, as an app publishes one.
///
/// A `.singleton` repository whose factory reads a `.shared` session through `@Instance`,
/// whose factory reads a `.singleton` client the same way. Each level counts its builds.
///
/// A test that changes the global stack makes a graph of its own, so that tests running in
/// parallel never change an injection another one reads.
struct Graph: Sendable {
  let api: Injection<any API>
  let session: Injection<Session>
  let repository: Injection<Repository>
  let builds: BuildCounts

  nonisolated init() {
    let builds = BuildCounts()
    let api = Injection<any API>(strategy: .singleton, instance: builds.counting(\.api, LiveAPI()))
    let session = Injection<Session>(
      strategy: .shared, instance: builds.counting(\.session, Session(api: Consumer(api).service)))
    self.repository = Injection<Repository>(
      strategy: .singleton, instance: builds.counting(\.repository, Repository(session: Consumer(session).service)))
    self.api = api
    self.session = session
    self.builds = builds
  }
}

/// How many times each level of a ``Graph`` was built.
@MainActor
final class BuildCounts: Sendable {
  var api = 0
  var session = 0
  var repository = 0

  nonisolated init() {}

  /// Counts one build of the level at `counter`, then builds it.
  func counting<T>(_ counter: ReferenceWritableKeyPath<BuildCounts, Int>, _ build: @autoclosure () -> T) -> T {
    self[keyPath: counter] += 1
    return build()
  }
}

/// A consumer at the top of the graph: a screen that reads the repository.
final class Screen {
  @Instance var repository: Repository

  init(_ graph: Graph) { _repository = Instance(graph.repository) }
}
