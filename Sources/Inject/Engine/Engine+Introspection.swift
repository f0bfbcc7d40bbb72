extension Engine {
  /// An injection's type, where it was published, and its override stacks, top first (in a test
  /// world, the test's above the global one), with each layer's location, strategy, and whether
  /// the global world holds an instance it built.
  func debugDescription(of injection: D.Injection) -> String {
    let heading =
      "\(publication.name) published at \(publication.location), strategy .\(publication.strategy)"
    return ([heading] + layersTopFirst(of: injection).map { "  " + describe($0) }).joined(separator: "\n")
  }

  /// The strategy, where the injection was published, and its layers, top first.
  func mirror(of injection: D.Injection) -> Mirror {
    Mirror(
      injection,
      children: [
        "strategy": publication.strategy,
        "publishedAt": publication.location,
        "layers": layersTopFirst(of: injection).map(describe),
      ],
      displayStyle: .class)
  }

  /// The override stacks that apply here, top first, down to the published layer: the current
  /// test's, in a test world, then the global one.
  private func layersTopFirst(of injection: D.Injection) -> [Layer<D>] {
    let configuration = Configuration<D>(injection, publication, in: World.current)
    // The stacks hold only `Layer<D>`s of the injection.
    let stacked = ((configuration.globals ?? []) + (configuration.tested ?? [])).map { Layer<D>.unerased($0) }
    return ([configuration.publication.published] + stacked).reversed()
  }

  /// One line: which layer, what it builds from, its strategy, where, and what it holds.
  private func describe(_ layer: Layer<D>) -> String {
    let strategy = layer.strategy.map { ".\($0)" } ?? ""
    let what =
      if let other = layer.delegate {
        "delegates to \(D.publication(of: other).label)"
      } else {
        "\(layer.decorates ? "closure" : "instance"), \(strategy)"
      }
    let verb = layer.origin == .published ? "published" : "pushed"
    let holds = D.holdsInstance(layer.slot) ? ", holds an instance" : ""
    return "\(layer.origin): \(what), \(verb) at \(layer.location)\(holds)"
  }
}
