import Dispatch
import Inject
import InjectTesting
import Testing

// The samples of InjectionWorld's documentation and of the Testing article's "Which world a
// consumer resolves in": a test's world carried into a detached task and onto a queue.

/// An HTTP client that any isolation may call.
protocol HTTPClient: Sendable {
  var name: String { get }
}

struct LiveHTTPClient: HTTPClient {
  var name: String { "live" }
}

struct MockHTTPClient: HTTPClient {
  var name: String { "mock" }
}

let httpClientInjection = SendableInjection<any HTTPClient>(strategy: .singleton, instance: LiveHTTPClient())

/// What refreshes a status in the background, with the HTTP client it consumes.
struct StatusRefresher {
  @SendableInstance(httpClientInjection) var client

  /// Refreshes, with the client it consumes; notes which.
  func refresh() async {
    let name = client.name
    refreshedWith.withLock { $0 = name }
  }
}

/// The client that `StatusRefresher` last refreshed with.
let refreshedWith = Locked<String?>(nil)

/// A sync status that notes which client refreshed it.
final class SyncStatus: Sendable {
  private let refreshedWith = Locked<String?>(nil)
  var client: String? { refreshedWith.withLock { $0 } }

  func refresh() {
    let name = httpClientInjection.resolve().name
    refreshedWith.withLock { $0 = name }
  }
}

let syncStatusInjection = SendableInjection<SyncStatus>(strategy: .singleton, instance: SyncStatus())

// The time limit is the suite's, so that the test reads as the documentation shows it.
@Suite(.timeLimit(.minutes(4))) struct WorldSamples {
  @Test(.overriding(httpClientInjection, with: MockHTTPClient()))
  func refreshesInTheBackground() async {
    let world = InjectionWorld.current
    await Task.detached {
      await world.run { await StatusRefresher().refresh() }  // the test's mock
    }.value
    #expect(refreshedWith.withLock { $0 } == "mock")
  }

  @Test(.timeLimit(.minutes(4)), .overriding(httpClientInjection, with: MockHTTPClient()))
  func aQueueRunsInTheCarriedWorld() async {
    await withCheckedContinuation { continuation in
      let world = InjectionWorld.current
      DispatchQueue.global().async {
        world.run { syncStatusInjection.resolve().refresh() }
        continuation.resume()
      }
    }
    #expect(syncStatusInjection.resolve().client == "mock")
  }
}
