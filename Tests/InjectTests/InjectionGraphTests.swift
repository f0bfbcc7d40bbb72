import Foundation
import Inject
import InjectTesting
import Testing

#if canImport(Observation)
import Observation
#endif

/// The graph a world built: its nodes and edges, the problems they prove, and a walk that
/// survives what it reads.
@Suite(.misusesOnPurpose) @MainActor struct InjectionGraphTests {
  @Test func aRootPassedAsAnOptionalIsNamedAsWhatItWraps() {
    withIsolatedInjections {
      let (injection, _) = makeInjection(.singleton)
      let consumer: Consumer<any Service>? = Consumer(injection)
      let none: Consumer<any Service>? = nil
      let roots = InjectionGraph.capture(roots: [consumer as Any, none as Any]).nodes.filter { $0.kind == .root }
      #expect(roots.map(\.type) == ["Consumer<Service>", "Optional<Consumer<Service>>"])
    }
  }

  @Test func singletonHoldingASharedInstanceIsACaptiveDependency() {
    withIsolatedInjections {
      // The screen keeps the injections alive, as globals would.
      let screen = screenWithCache(.singleton)
      let graph = withExtendedLifetime(screen) { InjectionGraph.capture() }
      let captives = graph.problems.filter { $0.kind == .captiveDependency }
      #expect(captives.count == 1)
      let captive = captives.first
      #expect(captive?.path.count == 1)
      #expect(captive?.message.contains("Injection<Consumer<Leaf>> (.singleton, published at InjectTests/") == true)
      #expect(captive?.message.contains("holds Injection<Leaf> (.shared, published at InjectTests/") == true)
      #expect(captive?.message.contains("through `service` at InjectTests/") == true)
    }
  }

  @Test func sharedInstancesHoldingEachOtherAreACycle() throws {
    try withIsolatedInjections {
      let links = Links()
      links.a = Injection<Link>(strategy: .shared, instance: Link(links.b))
      links.b = Injection<Link>(strategy: .shared, instance: Link(links.a))
      let screen = Consumer(try #require(links.a))
      let a = screen.service
      let b = a.next
      #expect(b.next === a)

      let graph = InjectionGraph.capture()
      let cycles = graph.problems.filter { $0.kind == .referenceCycle }
      #expect(cycles.count == 1)
      #expect(cycles.first?.path.count == 2)
      #expect(cycles.first?.message.hasPrefix("Reference cycle: Injection<Link> (.shared") == true)
      #expect(graph.errors.allSatisfy { $0.kind == .referenceCycle })
      // Breaks the cycles, so that the test leaks nothing: the instances', and the fixture's
      // (each injection's factory captures `links`, which holds both injections).
      b.$next.reset()
      (links.a, links.b) = (nil, nil)
    }
  }

  @Test func aStructBehindAnExistentialHoldingASharedInstanceIsACaptiveDependency() {
    withIsolatedInjections {
      let session = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let client = Injection<any Client>(strategy: .singleton, instance: StructClient(session))
      let screen = Consumer(client)
      _ = screen.service.session
      let graph = withExtendedLifetime(screen) { InjectionGraph.capture() }
      #expect(graph.errors.map(\.kind) == [.captiveDependency])
      #expect(graph.errors.first?.message.contains("Injection<Client> (.singleton") == true)
    }
  }

  @Test func sharedInstancesHeldByAReleasedConsumerAreNoProblem() {
    withIsolatedInjections {
      let screen = screenWithCache(.shared)
      #expect(InjectionGraph.capture(roots: [screen]).errors.isEmpty)
    }
  }

  @Test func injectionsDeclaredButNeverResolvedAreInformation() {
    withIsolatedInjections {
      let (injection, factory) = makeInjection(.shared)
      let screen = Consumer(injection)

      let graph = InjectionGraph.capture(roots: [screen])
      #expect(factory.calls == 0)
      #expect(graph.errors.isEmpty)
      #expect(graph.problems.map(\.kind) == [.neverResolved])
      #expect(graph.edges.map(\.isResolved) == [false])
      #expect(graph.nodes.last?.isResolved == false)
      #expect(graph.mermaid.contains("-.->"))
    }
  }

  @Test func nodesNameTheStrategyAndLayerThatBuiltTheInstance() {
    withIsolatedInjections {
      let published = Injection<Leaf>(strategy: .shared, instance: Leaf(), test: Leaf())
      let overridden = Injection<Leaf>(strategy: .shared, instance: Leaf())
      overridden.withOverride(Leaf(), strategy: .singleton) {
        let screen = (Consumer(published), Consumer(overridden))
        _ = (screen.0.service, screen.1.service)

        let graph = InjectionGraph.capture(roots: [screen.0, screen.1])
        let injections = graph.nodes.filter { $0.kind == .injection }
        #expect(injections.map(\.strategy) == [.shared, .singleton])
        #expect(injections.map(\.builtBy) == ["the test value", "a scoped override"])
        #expect(graph.nodes.filter { $0.kind == .root }.map(\.type) == ["Consumer<Leaf>", "Consumer<Leaf>"])
        #expect(graph.edges.map(\.property) == ["service", "service"])
        #expect(graph.edges.allSatisfy { $0.isResolved })
      }
    }
  }

  @Test func theGlobalWorldShowsTheStrategyOfTheOverrideThatBuiltTheInstance() {
    let (injection, _) = makeInjection(.shared)
    injection.override(with: ServiceImplementation("override"), strategy: .singleton)
    let consumer = Consumer(injection)
    _ = consumer.service
    // Other tests run beside this one in the global world: only this test's injection is checked.
    let graph = InjectionGraph.capture(roots: [consumer])
    let edge = graph.edges.first { $0.from == 0 }
    let node = edge.map { graph.nodes[$0.to] }
    #expect(node?.strategy == .singleton)
    #expect(node?.builtBy == "override layer 1")
    #expect(node?.isResolved == true)

    // Rolled back, the override's slot is forgotten: the consumer still holds its instance, but
    // no layer of the injection stores one.
    injection.rollbackOverride()
    let after = InjectionGraph.capture(roots: [consumer])
    let target = after.edges.first { $0.from == 0 }.map { after.nodes[$0.to] }
    #expect(target?.builtBy == nil)
    #expect(target?.strategy == .shared)
  }

  @Test func walkFindsPropertiesOfSuperclassesNestedStructsAndObservableClasses() throws {
    try withIsolatedInjections {
      let (injection, _) = makeInjection(.onDemand)
      let derived = Derived(injection)
      _ = (derived.inherited, derived.own, derived.dependencies.nested)
      let graph = InjectionGraph.capture(roots: [derived])
      #expect(Set(graph.edges.map(\.property)) == ["inherited", "own", "dependencies.nested"])
      #expect(graph.edges.allSatisfy { $0.isResolved })

      #if canImport(Observation)
      let observed = Observed(injection)
      _ = observed.service
      let edges = InjectionGraph.capture(roots: [observed]).edges
      #expect(edges.map(\.property) == ["service"])
      #expect(edges.first?.isResolved == true)
      #endif
      _ = try #require(graph.nodes.first)
    }
  }

  @Test func aDanglingUnownedFieldDoesNotStopTheWalk() {
    withIsolatedInjections {
      let (injection, _) = makeInjection(.shared)
      var parent: Leaf? = Leaf()
      weak let released = parent
      let child = Child(parent: parent.unsafelyUnwrapped, injection)
      parent = nil
      #expect(released == nil)
      _ = child.service

      let graph = InjectionGraph.capture(roots: [child])
      #expect(graph.edges.map(\.property) == ["service"])
    }
  }

  @Test func followingReferencesReachesConsumersInCollectionsOptionalsAndObjects() {
    withIsolatedInjections {
      let (injection, _) = makeInjection(.shared)
      var gone: Leaf? = Leaf()
      let held = Consumer(injection)
      let app = App(
        screens: [Consumer(injection), Consumer(injection)], modal: Consumer(injection),
        byName: ["settings": Consumer(injection)], parent: gone.unsafelyUnwrapped)
      app.owner = Plain(held: held)
      let elsewhere = Consumer(injection)
      app.unheld = elsewhere
      gone = nil
      _ = app.screens[0].service

      let walked = InjectionGraph.capture(roots: [app], followingReferences: true)
      #expect(walked.nodes.filter { $0.kind == .consumer }.count == 5)
      #expect(walked.edges.filter(\.isResolved).count == 1)
      #expect(walked.edges.count == 5)
      let unfollowed = InjectionGraph.capture(roots: [app])
      #expect(unfollowed.nodes.map(\.kind) == [.root, .injection])
      withExtendedLifetime(elsewhere) {}
    }
  }

  @Test func aChainOfAnyDepthIsWalkedWithoutRecursion() {
    withIsolatedInjections {
      let injection = Injection<Link>(strategy: .onDemand, instance: Link(nil))
      let chain = (0..<20_000).map { _ in Link(injection) }
      for (link, next) in zip(chain, chain.dropFirst()) {
        link.next = next
      }
      chain[chain.count - 1].next = chain[0]
      let graph = InjectionGraph.capture(roots: [chain[0]])
      #expect(graph.edges.count == 2)
      #expect(graph.edges.allSatisfy { $0.isResolved })
      // Assigned values, not `.shared` instances: no verdict.
      #expect(graph.errors.isEmpty)
      chain[chain.count - 1].$next.reset()
    }
  }

  @Test func theGraphKeepsNothingAlive() {
    weak var weakRoot: Consumer<Leaf>?
    weak var weakLeaf: Leaf?
    withIsolatedInjections {
      let leaf = Injection<Leaf>(strategy: .shared, instance: Leaf())
      var graph: InjectionGraph?
      do {
        let root = Consumer(leaf)
        weakLeaf = root.service
        weakRoot = root
        graph = InjectionGraph.capture(roots: [root])
      }
      #expect(graph?.nodes.count == 2)
      #expect(weakRoot == nil)
      #expect(weakLeaf == nil)
    }
  }

  @Test func picturesAndTheCodableFormShowTheSameGraph() throws {
    try withIsolatedInjections {
      let screen = screenWithCache(.singleton)
      let graph = InjectionGraph.capture(roots: [screen])

      let mermaid = graph.mermaid
      #expect(mermaid.hasPrefix("graph TD\n  n0([\"Consumer#lt;Consumer#lt;Leaf#gt;#gt;\"])"))
      #expect(mermaid.contains("n0 -->|\"service<br/>InjectTests/InjectionGraphTests.swift:"))
      #expect(mermaid.contains("linkStyle 1 stroke:#d00"))
      let dot = graph.dot
      #expect(dot.hasPrefix("digraph Injections {"))
      #expect(dot.contains("n1 -> n2 [label=\"service\\nInjectTests/InjectionGraphTests.swift:"))
      #expect(dot.contains("color=red"))

      let decoded = try JSONDecoder().decode(InjectionGraph.self, from: JSONEncoder().encode(graph))
      #expect(decoded == graph)
      let strategy = try JSONEncoder().encode(Strategy.onDemand)
      #expect(String(decoding: strategy, as: UTF8.self) == "\"onDemand\"")
    }
  }
}

// MARK: - Fixtures

/// A screen whose cache, published with `strategy`, holds a `.shared` session; both resolved.
@MainActor
private func screenWithCache(_ strategy: Strategy) -> Consumer<Consumer<Leaf>> {
  let session = Injection<Leaf>(strategy: .shared, instance: Leaf())
  let cache = Injection<Consumer<Leaf>>(strategy: strategy, instance: Consumer(session))
  let screen = Consumer(cache)
  _ = screen.service.service
  return screen
}

final class Leaf {}

/// A node that consumes an injection of its own type: a cycle of `.shared` instances, or a chain.
final class Link {
  @Instance var next: Link

  init(_ injection: Injection<Link>?) {
    // A chain's links are assigned, never resolved.
    _next = Instance(injection ?? Injection<Link>(strategy: .onDemand, instance: Link(nil)))
  }
}

/// A dependency whose implementation is a struct, consumed through an existential.
@MainActor
protocol Client {
  var session: Leaf { get }
}

struct StructClient: Client {
  @Instance var session: Leaf

  init(_ injection: Injection<Leaf>) {
    _session = Instance(injection)
  }
}

/// Two injections that consume each other, set once both exist.
@MainActor
final class Links {
  var a: Injection<Link>?
  var b: Injection<Link>?
}

class Base {
  @Instance var inherited: any Service

  init(_ injection: Injection<any Service>) {
    _inherited = Instance(injection)
  }
}

final class Derived: Base {
  struct Dependencies {
    @Instance var nested: any Service
  }

  @Instance var own: any Service
  let dependencies: Dependencies

  override init(_ injection: Injection<any Service>) {
    _own = Instance(injection)
    dependencies = Dependencies(nested: Instance(injection))
    super.init(injection)
  }
}

#if canImport(Observation)
@Observable
final class Observed {
  var title = ""
  @ObservationIgnored @Instance var service: any Service

  init(_ injection: Injection<any Service>) {
    _service = Instance(injection)
  }
}
#endif

/// An app's root: consumers in an array, an optional, a dictionary and a plain object, and
/// references the walk must not follow.
final class App {
  let screens: [Consumer<any Service>]
  let modal: Consumer<any Service>?
  let byName: [String: Consumer<any Service>]
  var owner: Plain?
  unowned let parent: Leaf
  weak var unheld: Consumer<any Service>?

  init(
    screens: [Consumer<any Service>], modal: Consumer<any Service>?, byName: [String: Consumer<any Service>],
    parent: Leaf
  ) {
    self.screens = screens
    self.modal = modal
    self.byName = byName
    self.parent = parent
  }
}

/// An object that declares no `@Instance` property and holds a consumer.
final class Plain {
  let held: Consumer<any Service>
  init(held: Consumer<any Service>) { self.held = held }
}

final class Child {
  unowned let parent: Leaf
  @Instance var service: any Service

  init(parent: Leaf, _ injection: Injection<any Service>) {
    self.parent = parent
    _service = Instance(injection)
  }
}

/// What a second review of the graph found, each failing before its fix.
@Suite @MainActor struct InjectionGraphReviewTests {
  @Test func aRootThatAnInjectionBuiltKeepsItsLifetimeInTheVerdict() {
    withIsolatedInjections {
      let leaf = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let holder = Injection<Consumer<Leaf>>(strategy: .singleton, instance: Consumer(leaf))
      let screen = Consumer(holder)
      let kept = screen.service
      _ = kept.service
      #expect(InjectionGraph.capture().errors.map(\.kind) == [.captiveDependency])
      #expect(InjectionGraph.capture(roots: [kept]).errors.map(\.kind) == [.captiveDependency])
    }
  }

  @Test func followingReferencesLeavesActorsAlone() {
    withIsolatedInjections {
      let keeper = Keeper()
      let graph = InjectionGraph.capture(roots: [keeper], followingReferences: true)
      #expect(graph.nodes.filter { $0.kind == .consumer }.isEmpty, "an actor's state is its own")
    }
  }

  @Test func followingReferencesSkipsCollectionsOfPlainValuesWhole() {
    withIsolatedInjections {
      let root = Bytes()
      _ = root.consumer.service
      let graph = InjectionGraph.capture(roots: [root], followingReferences: true)
      #expect(graph.nodes.filter { $0.kind == .consumer }.count == 1)
    }
  }

  /// The check of `.isolatedInjections(checkingGraph: true)` runs in each world of the test as
  /// it ends: a captive built in a scope (or an `.overriding` trait's world) is found.
  @Test func theGraphCheckRunsInTheWorldsOpenedInsideTheTest() async {
    let found = FoundProblems()
    let leaf = Injection<Leaf>(strategy: .shared, instance: Leaf())
    let holder = Injection<Consumer<Leaf>>(strategy: .singleton, instance: Consumer(leaf))
    let (unrelated, _) = makeInjection(.singleton)
    await withIsolatedInjections(
      reportingLeaks: nil, checkingGraph: { found.kinds += InjectionGraph.capture().errors.map(\.kind) },
      operation: {
        unrelated.withOverride(ServiceImplementation("scoped")) {
          _ = Consumer(holder).service.service
        }
      })
    #expect(found.kinds == [.captiveDependency], "once, in the scope's world; the test's own holds nothing")
  }
}

/// What a graph check found.
@MainActor private final class FoundProblems {
  var kinds: [InjectionGraph.Problem.Kind] = []
}

private let keeperLeafInjection = Injection<Leaf>(strategy: .shared, instance: Leaf())

/// An actor that holds a consumer: its state is isolated to it.
private actor Keeper {
  let consumer = Consumer(keeperLeafInjection)
}

/// A root with a large buffer of bytes beside its consumer.
private final class Bytes {
  let buffer = [UInt8](repeating: 0, count: 1_000_000)
  let consumer = Consumer(keeperLeafInjection)
}
