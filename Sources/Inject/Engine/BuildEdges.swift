/// What the builds of an injection's layers resolved, for the graph, layer by layer: each
/// dependency once.
///
/// By layer, so that what an override's factory resolved, in one test's world, is never taken
/// for what the published factory resolved in another's. A layer's entry goes once the layer is
/// released, pruned as new layers are noted (amortized), so scopes that come and go leave none.
struct BuildEdges: Sendable {
  private var byLayer: [ObjectIdentifier: Entry] = [:]
  /// When the entries are pruned, which the next new layer does, forgetting the released ones.
  private var pruning = PruneSchedule(minimum: 8)

  private struct Entry: Sendable {
    /// The layer, weakly: its identifier is unique while it is alive.
    weak var layer: (any AnyObject & Sendable)?
    var dependencies: [BuildDependency]
  }

  /// Notes what a build from `layer` resolved; forgets, when it notes a new one, those released
  /// since.
  mutating func note(_ dependencies: [BuildDependency], builtBy layer: any AnyObject & Sendable) {
    let key = ObjectIdentifier(layer)
    guard var entry = byLayer[key], entry.layer != nil else {
      if pruning.isDue(byLayer.count) {
        byLayer = byLayer.filter { $0.value.layer != nil }
        pruning.pruned(leaving: byLayer.count)
      }
      var unique: [BuildDependency] = []
      for dependency in dependencies where !unique.contains(dependency) {
        unique.append(dependency)
      }
      byLayer[key] = Entry(layer: layer, dependencies: unique)
      return
    }
    let new = dependencies.filter { !entry.dependencies.contains($0) }
    guard !new.isEmpty else { return }
    entry.dependencies.removeAll { $0.publication == nil }
    for dependency in new where !entry.dependencies.contains(dependency) {
      entry.dependencies.append(dependency)
    }
    byLayer[key] = entry
  }

  /// What the builds from the layer `layer` resolved.
  func dependencies(builtBy layer: ObjectIdentifier) -> [BuildDependency] {
    guard let entry = byLayer[layer], entry.layer != nil else { return [] }
    return entry.dependencies
  }
}
