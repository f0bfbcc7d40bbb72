import Inject
import InjectTesting
import Testing

/// Regression tests for the crashes of rollback: code of the user's that runs while a rollback
/// releases what it popped sees the final stack, and may resolve, push and roll back.
@Suite(.misusesOnPurpose) @MainActor struct RollbackReentrancyTests {
  /// Every popped layer's `deinit` sees the final stack: no override left, the published
  /// instance, and a dependent built from it; an override pushed there stays.
  @Test func codeRunByRollbackAllOverridesSeesTheFinalStackAndMayPush() {
    let graph = Graph()
    let live = Consumer(graph.api).service
    var seen: [(depth: Int, api: (any API)?, repositoryAPI: (any API)?)] = []
    let pushedInDeinit = MockAPI("pushed in deinit")
    for index in 0..<3 {
      let sentinel = Sentinel {
        seen.append((graph.api.overrideCount, Consumer(graph.api).service, Screen(graph).repository.api))
        if index == 0 { graph.api.override(with: pushedInDeinit) }
      }
      graph.api.override(with: { _ in sentinel.keep(MockAPI("mock \(index)")) }, strategy: .singleton)
    }
    let duringOverride = Screen(graph).repository
    #expect(duringOverride.api.name == "mock 2")
    graph.api.rollbackAllOverrides()
    #expect(seen.count == 3)
    let beforePush = seen.prefix { $0.depth == 0 }
    #expect(!beforePush.isEmpty)
    #expect(beforePush.allSatisfy { $0.api === live && $0.repositoryAPI === live })
    #expect(seen.dropFirst(beforePush.count).allSatisfy { $0.depth == 1 && $0.api === pushedInDeinit })
    #expect(graph.api.overrideCount == 1, "the override pushed while releasing stays")
    #expect(Consumer(graph.api).service === pushedInDeinit)
    graph.api.rollbackOverride()
    #expect(Consumer(graph.api).service === live)
  }

  /// A dependent dropped by the rollback runs code that builds the graph anew as it goes: it
  /// gets the live graph, never itself.
  @Test func aDroppedDependentsDeinitResolvesTheLiveGraph() {
    let api = Injection<any API>(strategy: .singleton, instance: LiveAPI())
    var rebuiltFromDeinit: [String] = []
    let dependent = Injection<Dependent>(strategy: .singleton, instance: Dependent(Consumer(api).service))
    Dependent.onDeinit = { rebuiltFromDeinit.append(Consumer(dependent).service.api.name) }
    defer { Dependent.onDeinit = nil }
    api.override(with: MockAPI("mock"))
    #expect(Consumer(dependent).service.api.name == "mock")
    api.rollbackOverride()
    #expect(rebuiltFromDeinit == ["live"])
    #expect(Consumer(dependent).service.api.name == "live")
  }

  @Test func rollbackFromADeinitDuringARollbackPopsTheLayerBeneath() {
    let (injection, _) = makeInjection(.singleton)
    injection.override(with: ServiceImplementation("bottom"))
    let sentinel = Sentinel { injection.rollbackOverride() }
    injection.override(with: { _ in sentinel.keep(ServiceImplementation("top")) }, strategy: .onDemand)
    _ = consume sentinel
    injection.rollbackOverride()
    #expect(injection.overrideCount == 0)
    #expect(Consumer(injection).service.name == "implementation #1")
  }
}

/// Runs its closure on the main actor when it is deinitialized: code of the user's that a
/// release runs.
final class Sentinel: Sendable {
  private let onDeinit: @MainActor () -> Void
  init(_ onDeinit: @escaping @MainActor () -> Void) { self.onDeinit = onDeinit }

  /// Returns `value`, so that a closure that calls it keeps this sentinel.
  func keep<T>(_ value: T) -> T { value }

  deinit {
    let body = onDeinit
    MainActor.assumeIsolated { body() }
  }
}

/// A dependent of the client that runs ``onDeinit`` when it is deinitialized.
private final class Dependent: Sendable {
  @MainActor static var onDeinit: (@MainActor () -> Void)?
  let api: any API
  init(_ api: any API) { self.api = api }
  deinit { MainActor.assumeIsolated { Self.onDeinit?() } }
}
