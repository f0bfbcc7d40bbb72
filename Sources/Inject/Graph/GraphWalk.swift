/// The walk behind ``InjectionGraph/capture(roots:followingReferences:)``: from the instances a world keeps and the
/// roots, along resolved `@Instance` properties, with an explicit stack and a visited set.
@MainActor
struct GraphWalk {
  /// The world walked (`nil`: the global world).
  private let world: World?
  /// Whether the walk follows ordinary strong references to reach more consumers.
  private let followsReferences: Bool
  private var nodes: [InjectionGraph.Node] = []
  private var edges: [InjectionGraph.Edge] = []
  /// The index in `edges` of each edge, by its ends and its property's location.
  private var edgeIndex: [EdgeKey: Int] = [:]
  /// The node of each injection met, by its identity.
  private var injectionNodes: [ObjectIdentifier: Int] = [:]
  /// The index in `instances` of the instance that the world keeps for each injection, by the
  /// injection's identity.
  private var storedInstances: [ObjectIdentifier: Int] = [:]
  /// The injections met through edges, kept alive for the walk so that their identities stay
  /// theirs.
  ///
  /// A listed slot's entry names its injection by identity only: it leaves when the
  /// injection is released on the main actor, or, released elsewhere, in the main-actor task
  /// that releases its layers; until then a new injection at the same address would share its
  /// node, a glitch of the picture and nothing worse.
  private var injections: [any GraphInjection] = []
  /// Every instance met: objects once each, values once per storage that holds them; when
  /// following references, the values met on the way too (each holds what it reaches).
  private var instances: [Walked] = []
  /// The index in `instances` of each object, or of each value an `@Instance` property holds
  /// by the property's storage, which copies of the wrapper share.
  private var visited: [ObjectIdentifier: Int] = [:]
  /// The index in `instances` of each value met by following references.
  private var visitedValues: [ValueIdentity: Int] = [:]
  /// Which instance holds which, through `@Instance` or a followed strong reference.
  private var links: [Link] = []
  private var problems: [InjectionGraph.Problem] = []
  /// How many instances the walk began at: the roots and the instances the world keeps, first
  /// in `instances`.
  private var startCount = 0
  /// The steps taken: instances and values met, edges looked at; what tests bound, so that
  /// shared storage and large graphs cannot make the walk blow up unseen.
  private(set) var work = 0

  private struct EdgeKey: Hashable {
    let from: Int
    let to: Int
    let location: String
  }

  /// An instance met: an object or a value, standing in the picture as its node.
  private struct Walked {
    let value: Any
    /// Its node; `nil` for an object or a value reached by following references that declares
    /// no `@Instance` property.
    let node: Int?
    /// Whether its world keeps it strongly: a `.singleton`, or a `.shared` value.
    var isKept: Bool
    /// Whether a `.shared` layer built it and its world holds it weakly.
    var isShared: Bool
    /// The session whose lifetime its world keeps it for, if a `.session` layer built it: it is
    /// kept (``isKept``) until the session ends.
    var session: InjectionSession? = nil
    /// What the injection that built it was published with, if an injection built it, and the
    /// layer that built it (`nil`: the published one): that layer's builds' dependencies are
    /// what it holds besides its consumer properties.
    var builtBy: (publication: any PublishedInjection, layer: ObjectIdentifier?)? = nil
  }

  private struct Link {
    let from: Int
    let to: Int
    /// The `@Instance` edge; `nil` for a strong reference followed.
    let edge: Int?
  }

  init(world: World?, followingReferences: Bool) {
    self.world = world
    self.followsReferences = followingReferences
  }

  /// The graph walked.
  var graph: InjectionGraph { InjectionGraph(nodes: nodes, edges: edges, problems: problems) }

  /// Walks from the world's instances and `roots`, then looks for problems.
  mutating func run(roots: [Any]) {
    for root in roots {
      // A root passed as an optional is named as what it wraps; `nil` as the optional type.
      let unwrapped = unwrappingOptionals(root, of: type(of: root))
      let node = addNode(kind: .root, type: typeName(type(of: unwrapped ?? root)), isResolved: true)
      guard let unwrapped else { continue }
      _ = instance(unwrapped, key: nil, node: node, isKept: false, isShared: false)
    }
    let entries =
      World.mainActorPart(of: world).access { $0.registered } + World.sendablePart(of: world).withLock { $0.registered }
    for entry in entries {
      let publication = entry.publication
      guard let stored = entry.slot.graphInstance,
        let value = unwrappingOptionals(stored.value, of: publication.valueType)
      else { continue }
      let node = node(key: entry.injection, publication, strategy: entry.strategy)
      nodes[node].strategy = entry.strategy
      nodes[node].builtBy = entry.origin.description
      nodes[node].isResolved = true
      let index = instance(
        value, key: nil, node: node, isKept: stored.isKept, isShared: entry.strategy == .shared && !stored.isKept
      )
      instances[index].session = instances[index].session ?? entry.strategy.session
      instances[index].builtBy = (publication, entry.layer)
      storedInstances[entry.injection] = index
    }
    startCount = instances.count
    var next = 0
    // `instances` grows as the walk meets new ones: a queue over it, with no recursion.
    while next < instances.count {
      walk(next)
      next += 1
    }
    findCaptives()
    findCycles()
    findNeverResolved()
  }

  // MARK: - Walking

  /// Reads the consumer properties of instance `index`, and meets what they hold; meets what its
  /// builds resolved, if an injection built it; when following references, meets what it holds
  /// strongly too.
  private mutating func walk(_ index: Int) {
    work += 1
    if followsReferences {
      follow(from: index)
    }
    guard let node = instances[index].node else { return }
    defer {
      // After the properties: a consumer that the factory read is the property's edge.
      if let (publication, layer) = instances[index].builtBy {
        walkDependencies(of: publication.dependencies(builtBy: layer), from: index, node: node)
      }
    }
    for (name, field) in FieldLayout.read(instances[index].value) {
      let target = self.node(for: field.injection)
      let edge = self.edge(from: node, to: target, property: name, location: field.location)
      guard let value = field.value else { continue }
      edges[edge].isResolved = true
      nodes[target].isResolved = true
      let met = instance(value, key: field.storage, node: target, isKept: false, isShared: false)
      if instances[met].builtBy == nil {
        // Which layer built it is not known here: the published one is taken to.
        instances[met].builtBy = (field.injection.published, nil)
      }
      links.append(Link(from: index, to: met, edge: edge))
    }
  }

  /// Meets `dependencies`, what the builds of instance `index` resolved, at `node`: an edge to
  /// each injection resolved, and a link to its instance where the world keeps one, which the
  /// instance is taken to hold.
  private mutating func walkDependencies(of dependencies: [BuildDependency], from index: Int, node: Int) {
    for dependency in dependencies {
      work += 1
      // An injection released since is no node.
      guard let resolved = dependency.publication else { continue }
      let target = self.node(key: dependency.injection, resolved, strategy: resolved.strategy)
      let edge = self.edge(from: node, to: target, property: "", location: dependency.location, kind: .build)
      // A consumer property that the factory read, which the walk met already.
      guard edges[edge].kind == .build else { continue }
      edges[edge].isResolved = true
      nodes[target].isResolved = true
      if let met = storedInstances[dependency.injection] {
        links.append(Link(from: index, to: met, edge: edge))
      }
    }
  }

  /// Meets what instance `index` holds through ordinary strong references, one step.
  ///
  /// It meets its fields, the elements of a collection, the payload of an optional or an enum:
  /// each object or value met is an instance of its own, walked in turn, so storage shared by
  /// many paths is walked once. Those that declare `@Instance` properties become consumer nodes.
  private mutating func follow(from index: Int) {
    for next in StrongFields.values(in: instances[index].value) {
      guard let boxed = unwrappingOptionals(next, of: Swift.type(of: next)) else { continue }
      let type = type(of: boxed)
      let hasFields = !FieldLayout.of(type).fields.isEmpty
      let identity: ValueIdentity?
      let known: Int?
      if type is AnyClass {
        identity = nil
        known = visited[ObjectIdentifier(boxed as AnyObject)]
      } else {
        guard hasFields || StrongFields.mayHoldObjects(type) else { continue }
        identity = ValueIdentity(boxed)
        known = identity.flatMap { visitedValues[$0] }
      }
      let met: Int
      if let known {
        met = known
      } else {
        let node = hasFields ? addNode(kind: .consumer, type: typeName(type), isResolved: true) : nil
        met = instance(boxed, key: nil, node: node, isKept: false, isShared: false)
        if let identity {
          visitedValues[identity] = met
        }
      }
      links.append(Link(from: index, to: met, edge: nil))
    }
  }

  /// The index of `value` in `instances`, added if it is new: an object by its identity, a
  /// value by `key` (the storage that holds it), or always new without a key.
  private mutating func instance(
    _ value: Any, key: ObjectIdentifier?, node: Int?, isKept: Bool, isShared: Bool
  )
    -> Int
  {
    let boxed = value
    let identity = type(of: boxed) is AnyClass ? ObjectIdentifier(boxed as AnyObject) : key
    if let identity, let index = visited[identity] {
      // Met again: a root that an injection built keeps the lifetime its world gives it.
      instances[index].isKept = instances[index].isKept || isKept
      instances[index].isShared = instances[index].isShared || isShared
      return index
    }
    instances.append(Walked(value: boxed, node: node, isKept: isKept, isShared: isShared))
    if let identity {
      visited[identity] = instances.count - 1
    }
    return instances.count - 1
  }

  /// The node of `injection`, added with the configuration that applies now if it is new.
  private mutating func node(for injection: any GraphInjection) -> Int {
    let key = ObjectIdentifier(injection)
    if let node = injectionNodes[key] {
      return node
    }
    injections.append(injection)
    return node(key: key, injection.published, strategy: injection.configuration(in: world).strategy)
  }

  /// The node of the injection `key`, published with `publication`, added with `strategy` if it
  /// is new.
  private mutating func node(key: ObjectIdentifier, _ publication: any PublishedInjection, strategy: Strategy) -> Int {
    if let node = injectionNodes[key] {
      return node
    }
    let type = typeName(publication.valueType)
    let node = addNode(
      kind: .injection, type: publication.family.map { "\(type)[\($0.keyDescription)]" } ?? type, isResolved: false)
    nodes[node].family = publication.family?.identity.label
    nodes[node].strategy = strategy
    nodes[node].publishedAt = publication.location.description
    nodes[node].isSendable = publication.kind == .sendable
    injectionNodes[key] = node
    return node
  }

  private mutating func addNode(kind: InjectionGraph.Node.Kind, type: String, isResolved: Bool) -> Int {
    let node = InjectionGraph.Node(
      id: nodes.count, kind: kind, type: type, strategy: nil, publishedAt: nil, builtBy: nil, isResolved: isResolved,
      isSendable: false)
    nodes.append(node)
    return node.id
  }

  /// The index of the edge for the property at `location` from `from` to `to`, added if new.
  private mutating func edge(
    from: Int, to: Int, property: String, location: CodeLocation, kind: InjectionGraph.Edge.Kind = .property
  ) -> Int {
    let key = EdgeKey(from: from, to: to, location: location.description)
    if let edge = edgeIndex[key] {
      return edge
    }
    edges.append(
      InjectionGraph.Edge(
        from: from, to: to, property: property, location: key.location, isResolved: false, kind: kind))
    edgeIndex[key] = edges.count - 1
    return edges.count - 1
  }

  // MARK: - Problems

  /// Reports each `.shared` instance that an instance kept for the life of the world, or of a
  /// session, holds through `@Instance`, directly or through instances it keeps alive that are
  /// not `.shared`; and each `.session` instance that an instance kept for the life of the world
  /// holds so.
  ///
  /// One breadth-first walk backwards from each `.shared` and `.session` instance, through the
  /// instances that are neither kept (each holds on its own) nor `.shared`, to the kept instances
  /// that reach it: so storage that many holders share is walked once per instance that may be
  /// captive, not once per holder. Each captive is reported once for each kept instance that
  /// reaches it, along a shortest path, however many references reach it.
  private mutating func findCaptives() {
    // Consumer properties first, then what builds resolved, then strong references followed: of
    // two paths as short, the one whose holding is surest is reported.
    var incoming = [[Int]](repeating: [], count: instances.count)
    var order = [Int](repeating: 0, count: links.count)
    var rankOrder = 0
    for rank in 0..<3 {
      for link in links.indices where self.rank(of: links[link]) == rank {
        incoming[links[link].to].append(link)
        order[link] = rankOrder
        rankOrder += 1
      }
    }
    // What each holder holds captive: its path's length and first link, to report in the order
    // a walk from the holder meets them, and the path.
    var captives: [Int: [(length: Int, first: Int, path: [Int])]] = [:]
    // The link each instance reaches the current candidate through, and when it was reached.
    var toward = [Int](repeating: 0, count: instances.count)
    var reachedFor = [Int](repeating: -1, count: instances.count)
    for candidate in instances.indices where instances[candidate].isShared || instances[candidate].session != nil {
      reachedFor[candidate] = candidate
      var queue = [candidate]
      var next = 0
      while next < queue.count {
        let index = queue[next]
        next += 1
        for link in incoming[index] {
          work += 1
          let from = links[link].from
          guard reachedFor[from] != candidate else { continue }
          reachedFor[from] = candidate
          toward[from] = link
          if instances[from].isKept {
            // A session's instance is kept, but only until its session ends: the world's instances
            // must not hold it. One session's instances holding another's are not reported: which
            // session ends first is the app's to know.
            guard instances[candidate].isShared || instances[from].session == nil else { continue }
            var path = [link]
            while links[path[path.count - 1]].to != candidate {
              path.append(toward[links[path[path.count - 1]].to])
            }
            captives[from, default: []].append((path.count, order[link], path))
          } else if !instances[from].isShared {
            queue.append(from)
          }
        }
      }
    }
    for holder in instances.indices {
      guard let held = captives[holder] else { continue }
      for captive in held.sorted(by: { ($0.length, $0.first) < ($1.length, $1.first) }) {
        report(.captiveDependency, path: captive.path, keptFor: instances[holder].session)
      }
    }
  }

  /// How surely a link holds what it reaches: 0 for a consumer property, 1 for what a build
  /// resolved, 2 for a strong reference followed.
  private func rank(of link: Link) -> Int {
    guard let edge = link.edge else { return 2 }
    return edges[edge].kind == .build ? 1 : 0
  }

  /// Reports each cycle of `@Instance` links through a `.shared` instance: strongly connected
  /// components, found with Tarjan's algorithm on an explicit stack.
  private mutating func findCycles() {
    let outgoing = Dictionary(grouping: links.indices, by: { links[$0].from })
    var order = [Int?](repeating: nil, count: instances.count)
    var lowest = [Int](repeating: 0, count: instances.count)
    var onStack = [Bool](repeating: false, count: instances.count)
    var component: [Int] = []
    var counter = 0
    var components: [[Int]] = []
    for start in instances.indices where order[start] == nil && instances[start].isShared {
      var frames: [(index: Int, next: Int)] = [(start, 0)]
      order[start] = counter
      lowest[start] = counter
      counter += 1
      component.append(start)
      onStack[start] = true
      while let (index, next) = frames.last {
        let out = outgoing[index] ?? []
        if next < out.count {
          frames[frames.count - 1].next += 1
          let target = links[out[next]].to
          if order[target] == nil {
            order[target] = counter
            lowest[target] = counter
            counter += 1
            component.append(target)
            onStack[target] = true
            frames.append((target, 0))
          } else if onStack[target] {
            lowest[index] = min(lowest[index], order[target] ?? 0)
          }
          continue
        }
        frames.removeLast()
        if let parent = frames.last {
          lowest[parent.index] = min(lowest[parent.index], lowest[index])
        }
        if lowest[index] == order[index] {
          var members: [Int] = []
          while let member = component.popLast() {
            onStack[member] = false
            members.append(member)
            if member == index { break }
          }
          components.append(members)
        }
      }
    }
    for members in components {
      let inside = Set(members)
      // One member is a cycle only if it holds itself.
      let isCycle = members.count > 1 || (outgoing[members[0]] ?? []).contains { links[$0].to == members[0] }
      guard isCycle, let start = members.first(where: { instances[$0].isShared }),
        !members.contains(where: { instances[$0].isKept })
      else { continue }
      report(.referenceCycle, path: cycle(from: start, outgoing: outgoing, inside: inside))
    }
  }

  /// A shortest cycle of links from `start` back to it, inside a strongly connected component.
  private func cycle(from start: Int, outgoing: [Int: [Int]], inside: Set<Int>) -> [Int] {
    var reachedBy: [Int: Int] = [:]
    var queue = [start]
    var next = 0
    while next < queue.count {
      let index = queue[next]
      next += 1
      for link in outgoing[index] ?? [] where inside.contains(links[link].to) {
        let target = links[link].to
        if target == start {
          var path = [link]
          var at = index
          while at != start, let previous = reachedBy[at] {
            path.append(previous)
            at = links[previous].from
          }
          return path.reversed()
        }
        if reachedBy[target] == nil {
          reachedBy[target] = link
          queue.append(target)
        }
      }
    }
    return []
  }

  /// Reports, as information, each injection that consumers declare and none resolved.
  private mutating func findNeverResolved() {
    // A loop, not a closure: a main-actor closure checks its executor at each call.
    var unresolved: [Int] = []
    for node in nodes.indices
    where nodes[node].kind == .injection && !nodes[node].isResolved {
      unresolved.append(node)
    }
    guard !unresolved.isEmpty else { return }
    work += edges.count
    let declaring = Dictionary(grouping: edges, by: \.to)
    for node in unresolved {
      let declaring = declaring[node] ?? []
      let properties = declaring.map { "`\($0.property)` at \($0.location)" }.joined(separator: ", ")
      problems.append(
        InjectionGraph.Problem(
          kind: .neverResolved, path: declaring,
          message: "Never resolved: \(describe(node)) is declared by \(properties), but no consumer has "
            + "read it yet. This is information, not an error: the injection builds nothing until a "
            + "consumer reads it."))
    }
  }

  /// Adds a problem along `path`, links from holder to held.
  ///
  /// A followed strong reference is named at the next instance that has a node: "holds
  /// `Panel` (a consumer) through strong references".
  ///
  /// A captive's holder is kept for the life of its world, or of `session`.
  private mutating func report(
    _ kind: InjectionGraph.Problem.Kind, path: [Int], keptFor session: InjectionSession? = nil
  ) {
    guard let first = path.first, let last = path.last, let holder = instances[links[first].from].node else { return }
    let steps = path.compactMap { link -> String? in
      guard let edge = links[link].edge.map({ edges[$0] }) else {
        return instances[links[link].to].node.map { "holds \(describe($0)) through strong references" }
      }
      if edge.kind == .build {
        return "holds \(describe(edge.to)), which its factory resolved at \(edge.location)"
      }
      return "holds \(describe(edge.to)) through `\(edge.property)` at \(edge.location)"
    }
    let chain = describe(holder) + " " + steps.joined(separator: ", which ")
    // The wrappers of the edges: an edge to a sendable injection is a `@SendableInstance`.
    let edgesOnPath = path.compactMap { links[$0].edge.map { edges[$0] } }
    let wrappers = Set(edgesOnPath.map { nodes[$0.to].isSendable ? "@SendableInstance" : "@Instance" }).sorted()
    let through = edgesOnPath.count == path.count ? " through \(wrappers.joined(separator: " and "))" : ""
    let heldNode = links[last].edge.map { edges[$0].to } ?? instances[links[last].to].node
    let held = heldNode.map { "\(nodes[$0].injectionTypeName)<\(nodes[$0].type)>" } ?? "Injection<?>"
    let heldStrategy = heldNode.flatMap { nodes[$0].strategy }
    let message =
      switch (kind, session, heldStrategy) {
      case (.captiveDependency, nil, .session(let heldSession)?):
        "Captive dependency: \(chain). The holder is kept for the life of its world, so the instance of "
          + "\(held) outlives its session: what it holds for the session (\(heldSession.name)) stays alive after "
          + "the session ends. To fix this, give the holder the session's lifetime (.session(\(heldSession.name))) "
          + "or a shorter one (.shared or .onDemand), or resolve the session's instance only in a consumer that is "
          + "released with the session."
      case (.captiveDependency, let session?, _):
        "Captive dependency: \(chain). The holder is kept until its session (\(session.name)) ends, so the "
          + ".shared instance of \(held) is released only then: a .session in disguise. To fix this, publish it "
          + "with .session(\(session.name)) if it should live that long, or give the holder a shorter lifetime "
          + "(.shared or .onDemand), or resolve the .shared instance only in a consumer that is released."
      case (.captiveDependency, nil, _):
        "Captive dependency: \(chain). The holder is kept for the life of its world, so the .shared "
          + "instance of \(held) is never released: a .singleton in disguise. To fix this, publish it with .singleton "
          + "if it should live that long, or give the holder a shorter lifetime (.shared or .onDemand), "
          + "or resolve the .shared instance only in a consumer that is released."
      case (.referenceCycle, _, _):
        "Reference cycle: \(chain). These .shared instances hold each other\(through), so none "
          + "of them is ever released. To fix this, break the cycle: let one of them resolve the other "
          + "only while it needs it (in a local), or publish one of them with .singleton."
      case (.neverResolved, _, _): chain
      }
    problems.append(
      InjectionGraph.Problem(
        kind: kind, path: edgesOnPath, followed: followedSteps(of: path, from: holder), message: message))
  }

  /// The strong references followed along `path`, which starts at node `holder`: one step from
  /// each node to the next node they reach.
  private func followedSteps(of path: [Int], from holder: Int) -> [InjectionGraph.Edge] {
    var steps: [InjectionGraph.Edge] = []
    var at = holder
    for link in path {
      if let edge = links[link].edge {
        at = edges[edge].to
      } else if let node = instances[links[link].to].node {
        steps.append(InjectionGraph.Edge(from: at, to: node, property: "", location: "", isResolved: true))
        at = node
      }
    }
    return steps
  }

  // MARK: - Holders

  /// Who holds each object that `objects` identifies, walked from the roots and the world's instances
  /// through `@Instance` properties: the shortest path from an instance the walk began at, if
  /// the walk reached the object.
  ///
  /// One pass over the links the walk made, whatever the number of objects: the walk is
  /// breadth first, so the first link that reached an instance is on a shortest path to it.
  func holdingPaths(of objects: [ObjectIdentifier]) -> [HoldingPath?] {
    var reachedBy = [Int?](repeating: nil, count: instances.count)
    for (index, link) in links.enumerated() where link.to >= startCount && reachedBy[link.to] == nil {
      reachedBy[link.to] = index
    }
    return objects.map { object in
      guard var at = visited[object] else { return nil }
      var holders: [String] = []
      var path: [InjectionGraph.Edge] = []
      // Holders by the type they are, which for an injection's instance may be more precise than
      // the type it is published as.
      while let link = reachedBy[at].map({ links[$0] }), let edge = link.edge.map({ edges[$0] }) {
        let holder = typeName(type(of: instances[link.from].value))
        holders.append(
          edge.kind == .build
            ? "\(holder), whose factory resolved it at \(edge.location)"
            : "\(holder).\(edge.property) (\(edge.location))")
        path.append(edge)
        at = link.from
      }
      if let start = instances[at].node, at < startCount {
        let isRoot = nodes[start].kind == .root
        holders.append(isRoot ? "the root \(typeName(type(of: instances[at].value)))" : describe(start))
      }
      return HoldingPath(path: path.reversed(), holders: holders)
    }
  }

  /// The `@Instance` edges that hold an object, and its holders as messages name them.
  struct HoldingPath {
    /// From the first holder to the object.
    let path: [InjectionGraph.Edge]
    /// From the nearest holder outwards: `SettingsModel.account (Settings/SettingsModel.swift:8)`,
    /// then the instance the walk began at, `Injection<SettingsModel> (.singleton, published at …)`
    /// or `the root AppModel`; empty for an object that is a root.
    let holders: [String]
  }

  /// A node as a problem names it: `Injection<T> (.shared, published at File.swift:3)`, or the
  /// root's type.
  private func describe(_ node: Int) -> String {
    let node = nodes[node]
    guard node.kind == .injection else { return "\(node.type) (a \(node.kind))" }
    let strategy = node.strategy.map { ".\($0), " } ?? ""
    return "\(node.injectionTypeName)<\(node.type)> (\(strategy)published at \(node.publishedAt ?? "?"))"
  }
}

extension GraphWalk {
  /// A walk of the current task's world from `roots` and the instances it keeps, through
  /// `@Instance` properties.
  static func run(roots: [Any]) -> GraphWalk {
    var walk = GraphWalk(world: World.current, followingReferences: false)
    walk.run(roots: roots)
    return walk
  }
}

extension InjectionGraph {
  /// Captures the graph as ``capture(roots:followingReferences:)`` does, and says how many steps
  /// the walk took, for tests that bound them.
  @MainActor
  package static func captureCountingWork(roots: [Any], followingReferences: Bool) -> (graph: Self, work: Int) {
    var walk = GraphWalk(world: World.current, followingReferences: followingReferences)
    walk.run(roots: roots)
    return (walk.graph, walk.work)
  }
}
