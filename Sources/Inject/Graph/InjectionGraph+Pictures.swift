extension InjectionGraph {
  /// The graph as a Mermaid flowchart (`graph TD`), which GitHub renders in a `mermaid` block.
  ///
  /// Roots are rounded; each injection shows its type, its strategy, the layer that built its
  /// instance and where it was published; the members of a family are drawn in a `subgraph`
  /// titled with the family, and the other injections of a session in one titled with the
  /// session's name. Each edge shows the property and where it is
  /// declared: solid once resolved, dotted before. The edges of a problem are red, and the
  /// strong references it followed (``Problem/followed``) are dashed red edges labelled
  /// "strong references".
  ///
  /// ```swift
  /// print(InjectionGraph.capture(roots: [model]).mermaid)
  /// // graph TD
  /// //   n0(["ProfileModel"])
  /// //   n1["UserRepository<br/>.singleton, the published layer<br/>ProfileKit/UserRepository.swift:22"]
  /// //   n2["APIClient<br/>.singleton, the test value<br/>ProfileKit/APIClient.swift:28"]
  /// //   n3["AvatarLoader<br/>.singleton, sendable, the published layer<br/>ProfileKit/AvatarLoader.swift:34"]
  /// //   n4["AvatarClient<br/>.singleton, sendable, the test value<br/>ProfileKit/AvatarClient.swift:50"]
  /// //   n0 -->|"repository<br/>ProfileFeature/ProfileModel.swift:38"| n1
  /// //   n0 -->|"avatarLoader<br/>ProfileFeature/ProfileModel.swift:49"| n3
  /// //   n1 -->|"apiClient<br/>ProfileKit/LiveUserRepository.swift:10"| n2
  /// //   n3 -->|"client<br/>ProfileKit/AvatarLoader.swift:10"| n4
  /// ```
  public var mermaid: String {
    var output = ["graph TD"]
    func declare(_ node: Node, indent: String) {
      let label = labelLines(of: node).map(mermaidEscaped).joined(separator: "<br/>")
      output.append(indent + (node.kind == .root ? "n\(node.id)([\"\(label)\"])" : "n\(node.id)[\"\(label)\"]"))
    }
    for group in nodeGroups {
      guard let (kind, title) = group.title else {
        group.nodes.forEach { declare($0, indent: "  ") }
        continue
      }
      output.append("  subgraph \(kind)\(group.nodes[0].id)[\"\(mermaidEscaped(title))\"]")
      group.nodes.forEach { declare($0, indent: "    ") }
      output.append("  end")
    }
    for edge in edges {
      let label = mermaidEscaped(edge.name) + "<br/>" + mermaidEscaped(edge.location)
      let arrow = edge.isResolved ? "-->" : "-.->"
      output.append("  n\(edge.from) \(arrow)|\"\(label)\"| n\(edge.to)")
    }
    let followed = followedReferences
    for step in followed {
      output.append("  n\(step.from) -.->|\"strong references\"| n\(step.to)")
    }
    let wrong = Set(errors.flatMap(\.path))
    for (index, edge) in edges.enumerated() where wrong.contains(edge) {
      output.append("  linkStyle \(index) stroke:#d00,stroke-width:2px")
    }
    for index in followed.indices {
      output.append("  linkStyle \(edges.count + index) stroke:#d00,stroke-width:2px,stroke-dasharray:4")
    }
    return output.joined(separator: "\n")
  }

  /// The graph in Graphviz's dot language: `dot -Tsvg` draws it.
  ///
  /// The same nodes and edges as ``mermaid``: roots rounded, a family's members and a session's
  /// injections each in a `cluster` subgraph, edges dashed until resolved, and the edges of a
  /// problem red, with the strong references it followed as dashed red edges.
  ///
  /// ```swift
  /// let dot = InjectionGraph.capture(roots: [model]).dot
  /// ```
  public var dot: String {
    var output = ["digraph Injections {", "  node [shape=box];"]
    func declare(_ node: Node, indent: String) {
      let label = labelLines(of: node).map(dotEscaped).joined(separator: "\\n")
      output.append(indent + "n\(node.id) [label=\"\(label)\"\(node.kind == .root ? ", style=rounded" : "")];")
    }
    for group in nodeGroups {
      guard let (kind, title) = group.title else {
        group.nodes.forEach { declare($0, indent: "  ") }
        continue
      }
      output.append("  subgraph cluster_\(kind)\(group.nodes[0].id) {")
      output.append("    label=\"\(dotEscaped(title))\";")
      group.nodes.forEach { declare($0, indent: "    ") }
      output.append("  }")
    }
    let wrong = Set(errors.flatMap(\.path))
    for edge in edges {
      var attributes = ["label=\"\(dotEscaped(edge.name))\\n\(dotEscaped(edge.location))\""]
      if !edge.isResolved {
        attributes.append("style=dashed")
      }
      if wrong.contains(edge) {
        attributes.append("color=red")
      }
      output.append("  n\(edge.from) -> n\(edge.to) [\(attributes.joined(separator: ", "))];")
    }
    for step in followedReferences {
      output.append("  n\(step.from) -> n\(step.to) [label=\"strong references\", style=dashed, color=red];")
    }
    output.append("}")
    return output.joined(separator: "\n")
  }

  /// The nodes in order, in runs of a group each.
  ///
  /// Each node of no group is alone, and the nodes of each group are together, where its first
  /// node is, under the group's title: a family's members (`family: …`), else a session's
  /// injections (`session: …`). Groups are told apart by their title, which is what a decoded
  /// graph keeps of them.
  private var nodeGroups: [(title: (kind: String, text: String)?, nodes: [Node])] {
    var groups: [(title: (kind: String, text: String)?, nodes: [Node])] = []
    var groupOfTitle: [String: Int] = [:]
    for node in nodes {
      let title: (kind: String, text: String)? =
        if let family = node.family {
          ("family", "family: \(family)")
        } else if case .session(let session)? = node.strategy {
          ("session", "session: \(session.name)")
        } else {
          nil
        }
      guard let title else {
        groups.append((nil, [node]))
        continue
      }
      if let group = groupOfTitle[title.text] {
        groups[group].nodes.append(node)
      } else {
        groupOfTitle[title.text] = groups.count
        groups.append((title, [node]))
      }
    }
    return groups
  }

  /// The strong references followed on the problems' paths, once each, in order.
  private var followedReferences: [Edge] {
    var seen: Set<Edge> = []
    return errors.flatMap(\.followed).filter { seen.insert($0).inserted }
  }

  /// The lines of a node's label: its type, then for an injection its strategy and layer, and
  /// where it was published.
  private func labelLines(of node: Node) -> [String] {
    guard node.kind == .injection else { return [node.type] }
    let strategy = node.strategy.map { ".\($0)" }
    let sendable: String? = node.isSendable ? "sendable" : nil
    let how = [strategy, sendable, node.builtBy ?? (node.isResolved ? nil : "not resolved")].compactMap(\.self)
    return [node.type, how.joined(separator: ", "), node.publishedAt].compactMap { $0?.isEmpty == false ? $0 : nil }
  }
}

/// `text` in a quoted Mermaid label: quotes, angle brackets, ampersands and number signs as
/// entity codes, so that text which looks like an entity (`#quot;`, `&lt;`) shows as written;
/// line breaks (in a family's key) as entity codes too, so that a label stays on one line.
private func mermaidEscaped(_ text: String) -> String {
  text.reduce(into: "") { escaped, character in
    switch character {
    case "#": escaped += "#35;"
    case "&": escaped += "#38;"
    case "\"": escaped += "#quot;"
    case "<": escaped += "#lt;"
    case ">": escaped += "#gt;"
    case "\n": escaped += "#10;"
    case "\r": escaped += "#13;"
    case "\r\n": escaped += "#13;#10;"
    default: escaped.append(character)
    }
  }
}

/// `text` in a quoted dot label: quotes and backslashes escaped, ampersands as `&amp;`, since
/// Graphviz reads entities (`&lt;`) in every label, and line breaks as escapes.
private func dotEscaped(_ text: String) -> String {
  text.reduce(into: "") { escaped, character in
    switch character {
    case "\"", "\\": escaped += "\\\(character)"
    case "&": escaped += "&amp;"
    case "\n": escaped += "\\n"
    case "\r": escaped += "\\r"
    case "\r\n": escaped += "\\r\\n"
    default: escaped.append(character)
    }
  }
}

extension InjectionGraph.Edge {
  /// What the pictures write on the edge: the property's name, or, for what a factory resolved,
  /// "built with".
  fileprivate var name: String { kind == .build ? "built with" : property }
}
