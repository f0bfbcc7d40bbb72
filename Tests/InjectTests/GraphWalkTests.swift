import Foundation
import Inject
import InjectTesting
import Testing

/// The graph's walk on the shapes users give it: struct consumers in collections, optionals and
/// existentials, optional injections, storage shared by many paths, many injections.
@Suite(.misusesOnPurpose) @MainActor struct GraphWalkTests {
  @Test func followingReferencesWalksStructConsumersInCollectionsOptionalsAndExistentials() {
    withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let board = Board(
        panels: [Panel(flow), Panel(flow, id: 1)], byName: ["settings": Panel(flow)], unique: [Panel(flow)],
        modal: Panel(flow), main: Panel(flow))
      _ = board.modal?.flow

      let graph = InjectionGraph.capture(roots: [board], followingReferences: true)
      #expect(graph.nodes.filter { $0.kind == .consumer }.count == 6)
      #expect(graph.edges.count == 6)
      #expect(graph.edges.filter(\.isResolved).map(\.property) == ["flow"])
      #expect(InjectionGraph.capture(roots: [board]).nodes.map(\.kind) == [.root, .injection])
    }
  }

  @Test func aSingletonKeepingConsumersThroughFollowedReferencesIsACaptiveDependency() {
    withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let dashboard = Injection<Dashboard>(
        strategy: .singleton, instance: Dashboard(panels: [Consumer(flow)], structPanels: [Panel(flow)]))
      let screen = Consumer(dashboard)
      _ = screen.service.panels[0].service
      _ = screen.service.structPanels[0].flow

      let followed = InjectionGraph.capture(followingReferences: true)
      // One captive, reported once though two panels reach it.
      #expect(followed.errors.map(\.kind) == [.captiveDependency])
      #expect(followed.errors.flatMap { $0.path.map(\.property) } == ["service"])
      let message = followed.errors.first?.message ?? ""
      #expect(message.hasPrefix("Captive dependency: Injection<Dashboard> (.singleton, published at InjectTests/"))
      #expect(message.contains("through strong references"))
      // Without following, verdicts rest on `@Instance` edges only.
      #expect(InjectionGraph.capture().errors.isEmpty)
      withExtendedLifetime(screen) {}
    }
  }

  @Test func followingReferencesWalksTheStandardLibrarysOtherCollections() {
    withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let other = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let panel = Panel(flow)
      let containers: [(name: String, value: Any)] = [
        ("ArraySlice", [Panel(other), panel][1...]), ("Dictionary.Keys", [panel: 0].keys),
        ("Dictionary.Values", [0: panel].values), ("KeyValuePairs", ["panel": panel] as KeyValuePairs),
        ("CollectionOfOne", CollectionOfOne(panel)), ("Slice", Slice(base: [panel], bounds: 0..<1)),
        // A lazy sequence is read by its fields, its base; its closure is not called.
        ("LazyMapSequence", [panel].lazy.map { _ in Panel(other) }),
        // A `ManagedBuffer` is read by its fields: its header, not its elements.
        ("ManagedBuffer", PanelBuffer.make(header: panel, element: Panel(other))),
      ]
      _ = panel.flow
      for container in containers {
        let graph = InjectionGraph.capture(roots: [Holder(container.value)], followingReferences: true)
        let reached = graph.edges.filter(\.isResolved).map { graph.nodes[$0.to].type }
        #expect(reached == ["Leaf"], "\(container.name)")
        #expect(graph.edges.count == 1, "\(container.name)")
      }
    }
  }

  @Test func aCaptiveReachedByManyReferencesIsReportedOncePerHolder() {
    withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let panels = (0..<50).map { _ in Consumer(flow) }
      let dashboard = Injection<Dashboard>(
        strategy: .singleton,
        instance: Dashboard(panels: panels, structPanels: (0..<50).map { Panel(flow, id: $0) }))
      let other = Injection<Dashboard>(
        strategy: .singleton, instance: Dashboard(panels: [Consumer(flow)], structPanels: []))
      let screens = [Consumer(dashboard), Consumer(other)]
      for screen in screens {
        _ = screen.service.panels.map(\.service)
        _ = screen.service.structPanels.map(\.flow)
      }

      let errors = InjectionGraph.capture(followingReferences: true).errors
      // One problem for each singleton that holds the flow, not one per panel: the issues that
      // `expectNoLifetimeProblems` records, one per problem.
      #expect(errors.count == 2)
      #expect(errors.allSatisfy { $0.kind == .captiveDependency && $0.path.map(\.property) == ["service"] })
    }
  }

  /// Two singletons that keep one plain consumer each keep its `.shared` instance: both are
  /// reported, so fixing one does not reveal the other only on the next run.
  @Test func twoSingletonsSharingAPlainConsumerAreEachReported() {
    withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let panel = Consumer(flow)
      let first = Injection<Dashboard>(strategy: .singleton, instance: Dashboard(panels: [panel], structPanels: []))
      let second = Injection<Dashboard>(strategy: .singleton, instance: Dashboard(panels: [panel], structPanels: []))
      let screens = [Consumer(first), Consumer(second)]
      _ = screens.map(\.service)
      _ = panel.service

      let errors = InjectionGraph.capture(followingReferences: true).errors
      #expect(errors.count == 2)
      #expect(errors.allSatisfy { $0.kind == .captiveDependency && $0.path.map(\.property) == ["service"] })
      #expect(Set(errors.map(\.message)).count == 2, "one for each singleton, named in its message")
    }
  }

  @Test func aCaptiveHeldThroughAnInstanceAndACopyIsReportedOnceThroughTheInstance() {
    withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let store = Injection<CachingStore>(strategy: .singleton, instance: CachingStore(flow))
      let screen = Consumer(store)
      _ = screen.service.cached

      let errors = InjectionGraph.capture(followingReferences: true).errors
      #expect(errors.map(\.kind) == [.captiveDependency])
      #expect(errors.first?.path.map(\.property) == ["flow"])
    }
  }

  @Test func followedReferencesCountForCaptivesAndCyclesWithoutAnyEdge() {
    withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let screen = Consumer(flow)
      // Resolved before the keeper's build, which reads it resolved: no edge of the build's.
      _ = screen.service
      let keeper = Injection<PlainKeeper>(strategy: .singleton, instance: PlainKeeper(screen.service))
      let kept = Consumer(keeper)
      _ = kept.service

      let captives = InjectionGraph.capture(followingReferences: true).errors
      #expect(captives.map(\.kind) == [.captiveDependency])
      #expect(captives.first?.path.isEmpty == true)
      #expect(captives.first?.message.contains("holds Injection<Leaf> (.shared") == true)
      #expect(InjectionGraph.capture().errors.isEmpty)
    }
    withIsolatedInjections {
      let partner = Injection<Partner>(strategy: .shared, instance: Partner())
      let looped = Injection<Looped>(strategy: .shared, instance: Looped(partner))
      let screen = Consumer(looped)
      // The looped instance holds its partner through `@Instance`, the partner holds it back.
      screen.service.partner.back = screen.service

      let cycles = InjectionGraph.capture(followingReferences: true).errors
      #expect(cycles.map(\.kind) == [.referenceCycle])
      #expect(cycles.first?.path.map(\.property) == ["partner"])
      #expect(InjectionGraph.capture().errors.isEmpty)
      screen.service.partner.back = nil
    }
  }

  @Test func picturesDrawTheFollowedReferencesOfAProblemDashedAndRed() throws {
    try withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let screen = Consumer(flow)
      // Resolved before the keeper's build, which reads it resolved: no edge of the build's.
      _ = screen.service
      let keeper = Injection<PlainKeeper>(strategy: .singleton, instance: PlainKeeper(screen.service))
      let kept = Consumer(keeper)
      _ = kept.service

      let graph = InjectionGraph.capture(followingReferences: true)
      let problem = try #require(graph.errors.first)
      let keeperNode = try #require(graph.nodes.first { $0.type == "PlainKeeper" })
      let flowNode = try #require(graph.nodes.first { $0.type == "Leaf" })
      #expect(problem.path.isEmpty)
      #expect(problem.followed.map { [$0.from, $0.to] } == [[keeperNode.id, flowNode.id]])
      let step = "n\(keeperNode.id) -.->|\"strong references\"| n\(flowNode.id)"
      #expect(graph.mermaid.contains(step))
      #expect(graph.mermaid.hasSuffix("linkStyle \(graph.edges.count) stroke:#d00,stroke-width:2px,stroke-dasharray:4"))
      #expect(
        graph.dot.contains(
          "n\(keeperNode.id) -> n\(flowNode.id) [label=\"strong references\", style=dashed, color=red];"))
      // The Codable form keeps them; a graph encoded without them decodes with none.
      let decoded = try JSONDecoder().decode(InjectionGraph.self, from: JSONEncoder().encode(graph))
      #expect(decoded == graph)
      let old = """
        {"nodes": [], "edges": [], "problems": [{"kind": "referenceCycle", "path": [], "message": "m"}]}
        """
      let oldGraph = try JSONDecoder().decode(InjectionGraph.self, from: Data(old.utf8))
      #expect(oldGraph.problems.map(\.followed) == [[]])
    }
  }

  @Test func anInjectionOfAnOptionalTypeIsWalked() {
    withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let store = Injection<Consumer<Leaf>?>(strategy: .singleton, instance: Consumer(flow))
      let screen = Consumer(store)
      _ = screen.service?.service

      let graph = InjectionGraph.capture(roots: [screen])
      #expect(graph.edges.map(\.property) == ["service", "service"])
      #expect(graph.edges.allSatisfy { $0.isResolved })
      #expect(graph.errors.map(\.kind) == [.captiveDependency])
    }
  }

  @Test func storageSharedByManyPathsIsWalkedOnce() {
    withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      // 2^16 paths to one leaf through indirect enum boxes, 2^14 through arrays.
      var tree = Tree.leaf(Consumer(flow))
      for _ in 0..<16 {
        tree = .node(tree, tree)
      }
      var list: [Any] = [Consumer(flow)]
      for _ in 0..<14 {
        list = [list, list]
      }
      for root in [Holder(tree), Holder(list)] {
        let (graph, work) = InjectionGraph.captureCountingWork(roots: [root], followingReferences: true)
        #expect(graph.nodes.filter { $0.kind == .consumer }.count == 1)
        // About 3 steps per level: a generous bound that the number of paths breaks.
        #expect(work < 500)
      }
    }
  }

  @Test func storageThatManyKeptInstancesShareIsWalkedOnceForCaptives() throws {
    try withIsolatedInjections {
      let flow = Injection<Leaf>(strategy: .shared, instance: Leaf())
      let held = flow.resolve()
      let leaves: [AnyObject] = [held] + (0..<3_000).map { _ in Leaf() }
      let holders = (0..<300).map { _ in Injection<Holder>(strategy: .singleton, instance: Holder(leaves)) }
      for holder in holders {
        _ = holder.resolve()
      }
      let (graph, work) = InjectionGraph.captureCountingWork(roots: [], followingReferences: true)
      // Each singleton holds the .shared leaf captive, through the one array they share.
      let captives = graph.errors.filter { $0.kind == .captiveDependency }
      #expect(captives.count == 300)
      let first = try #require(captives.first)
      #expect(first.path.isEmpty)
      #expect(first.followed.count == 1)
      // A few steps per instance and link, where a walk from each holder through the array
      // they share takes 300 × 3,000.
      #expect(work < 10 * (300 + 3_000))
      withExtendedLifetime((held, holders)) {}
    }
  }

  @Test func theNeverResolvedReportIsLinearInTheInjections() {
    withIsolatedInjections {
      let consumers = (0..<2_000).map { _ in Consumer(Injection<Leaf>(strategy: .shared, instance: Leaf())) }
      let (graph, work) = InjectionGraph.captureCountingWork(roots: consumers, followingReferences: false)
      #expect(graph.problems.count == 2_000)
      #expect(graph.problems.allSatisfy { $0.kind == .neverResolved })
      // A few steps per consumer, where a report scanning every edge for each injection takes
      // 2,000 × 2,000.
      #expect(work < 10 * 2_000)
    }
  }

  @Test func aRawIdentifierPropertyIsNamedWithoutItsBackticks() {
    withIsolatedInjections {
      let graph = InjectionGraph.capture(roots: [RawNamed()])
      #expect(graph.edges.map { Array($0.property.unicodeScalars) } == [Array("my field".unicodeScalars)])
    }
  }

  @Test func aRawIdentifierTypeIsNamedWithoutItsBackticks() {
    withIsolatedInjections {
      let value = Injection<`Raw "Named" Value`>(strategy: .singleton, instance: `Raw "Named" Value`())
      let screen = Consumer(value)
      _ = screen.service

      let graph = InjectionGraph.capture(roots: [screen])
      #expect(graph.nodes.map(\.type) == [#"Consumer<Raw "Named" Value>"#, #"Raw "Named" Value"#])
      #expect(graph.mermaid.contains(##"n0(["Consumer#lt;Raw #quot;Named#quot; Value#gt;"])"##))
      #expect(graph.dot.contains(#"n1 [label="Raw \"Named\" Value\n.singleton"#))
      #expect(!graph.mermaid.contains("`") && !graph.dot.contains("`"))
    }
  }

  @Test func picturesEscapeTextThatLooksLikeAnEntity() throws {
    let json = """
      {"nodes": [{"id": 0, "kind": "root", "type": "A#quot;B&lt;C", "isResolved": true}],
       "edges": [{"from": 0, "to": 0, "property": "#lt;p&q", "location": "M/F.swift:1", "isResolved": true}],
       "problems": []}
      """
    let graph = try JSONDecoder().decode(InjectionGraph.self, from: Data(json.utf8))
    #expect(graph.mermaid.contains(##"n0(["A#35;quot;B#38;lt;C"])"##))
    #expect(graph.mermaid.contains(##"|"#35;lt;p#38;q<br/>M/F.swift:1"|"##))
    // Graphviz reads entities (`&lt;`) in every label too.
    #expect(graph.dot.contains(##"n0 [label="A#quot;B&amp;lt;C", style=rounded];"##))
    #expect(graph.dot.contains(##"[label="#lt;p&amp;q\nM/F.swift:1"]"##))
  }
}

// MARK: - Fixtures

/// A struct consumer, as a panel of a screen.
struct Panel: Hashable, PanelContent {
  let id: Int
  @Instance var flow: Leaf

  init(_ injection: Injection<Leaf>, id: Int = 0) {
    self.id = id
    _flow = Instance(injection)
  }

  static func == (lhs: Panel, rhs: Panel) -> Bool { lhs.id == rhs.id }
  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

protocol PanelContent {}

/// Struct consumers in every kind of container.
final class Board {
  let panels: [any PanelContent]
  let byName: [String: Panel]
  let unique: Set<Panel>
  let modal: Panel?
  let main: any PanelContent

  init(panels: [any PanelContent], byName: [String: Panel], unique: Set<Panel>, modal: Panel?, main: Panel) {
    (self.panels, self.byName, self.unique, self.modal, self.main) = (panels, byName, unique, modal, main)
  }
}

/// A screen's panels, kept by a `.singleton`: class and struct consumers.
final class Dashboard {
  let panels: [Consumer<Leaf>]
  let structPanels: [Panel]

  init(panels: [Consumer<Leaf>], structPanels: [Panel]) {
    (self.panels, self.structPanels) = (panels, structPanels)
  }
}

indirect enum Tree {
  case leaf(Consumer<Leaf>)
  case node(Tree, Tree)
}

/// Holds its `@Instance` flow a second time, through a plain property.
@MainActor final class CachingStore {
  @Instance var flow: Leaf
  var cached: Leaf?

  init(_ injection: Injection<Leaf>) {
    _flow = Instance(injection)
    cached = flow
  }
}

/// A `ManagedBuffer` of panels, as collections of other packages (swift-collections' `Deque`)
/// store their elements.
final class PanelBuffer: ManagedBuffer<Panel, Panel> {
  static func make(header: Panel, element: Panel) -> PanelBuffer {
    let buffer = create(minimumCapacity: 1) { _ in header }
    buffer.withUnsafeMutablePointerToElements { $0.initialize(to: element) }
    // The class of `create`'s result is the subclass it was called on.
    return unsafeDowncast(buffer, to: PanelBuffer.self)
  }

  deinit {
    _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) }
  }
}

/// Holds an object through a plain property.
final class PlainKeeper {
  let held: AnyObject
  init(_ held: AnyObject) { self.held = held }
}

final class Looped {
  @Instance var partner: Partner
  init(_ injection: Injection<Partner>) { _partner = Instance(injection) }
}

final class Partner {
  var back: AnyObject?
}

final class Holder {
  let value: Any
  init(_ value: Any) { self.value = value }
}

struct `Raw "Named" Value` {}

let rawNamedFlow = Injection<Leaf>(strategy: .shared, instance: Leaf())

final class RawNamed {
  @Instance(rawNamedFlow) var `my field`
}
