/// What a build resolved while it ran, noted in its frame on the chain of builds in progress of
/// its door (``Door/beginBuild()``): the session generations of the instances it resolved,
/// so that what it stores lists them, and the injections it resolved, for the graph.
struct BuildRecord: Sendable {
  /// The generations of the instances the build resolved, each once.
  var generations: [SessionGeneration] = []
  /// The injections the build resolved, each once per place.
  var dependencies: [BuildDependency] = []

  /// Notes that the build resolved `dependency`, an instance that belongs to `generations`.
  mutating func note(_ dependency: BuildDependency, _ generations: [SessionGeneration]) {
    for generation in generations where !self.generations.contains(where: { $0 === generation }) {
      self.generations.append(generation)
    }
    if !dependencies.contains(dependency) {
      dependencies.append(dependency)
    }
  }
}

/// An injection that a factory resolved while it built, and where: an edge of the graph from
/// the injection that built, which is taken to hold what it resolved.
///
/// It names the injection, and holds what it was published with weakly: the injection that
/// built may live for the whole process (a global `let`), and must not keep an injection it
/// resolved once, or what that one's factories captured, alive after its release.
struct BuildDependency: Sendable, Equatable {
  /// The injection resolved, by identity: unique while ``publication`` is alive.
  let injection: ObjectIdentifier
  /// What it was published with, while the injection is alive.
  weak let publication: (any PublishedInjection)?
  /// Where it was resolved: the consumer's declaration, or the `resolve()` call.
  let location: CodeLocation

  /// `injection`, published with `publication`, resolved at `location`.
  init(_ injection: AnyObject, _ publication: any PublishedInjection, at location: CodeLocation) {
    (self.injection, self.publication, self.location) = (ObjectIdentifier(injection), publication, location)
  }

  /// The same injection, alive, resolved at the same place: a released injection's identifier
  /// may be another's now.
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.injection == rhs.injection && lhs.location == rhs.location && lhs.publication != nil
      && lhs.publication === rhs.publication
  }
}

/// What the graph and the messages show of an injection of either kind, whatever its type:
/// a ``Publication``.
protocol PublishedInjection: AnyObject, Sendable {
  /// `Injection<Service> (ServicePackage/Services.swift:12)`.
  var label: String { get }
  /// The type of its instances, such as `any Service`.
  var valueType: any Any.Type { get }
  /// Where it was published.
  var location: CodeLocation { get }
  /// The strategy it was published with.
  var strategy: Strategy { get }
  /// Which kind of injection it is.
  var kind: InjectionKind { get }
  /// The family and key of a family's member; `nil` for an injection published on its own.
  var family: FamilyLink? { get }
  /// What the builds from its layer `layer` resolved (`nil`: its published layer), for the
  /// graph.
  func dependencies(builtBy layer: ObjectIdentifier?) -> [BuildDependency]
}
