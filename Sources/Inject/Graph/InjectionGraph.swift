/// The dependency graph that the current task's world built, captured on demand: which
/// injections hold instances, which consumers hold them through `@Instance`, and the lifetime
/// bugs among them.
///
/// Capture it on the main actor, where the instances live, in the world you want to see: the
/// global one, or the test world or scope the caller runs in. Pass the objects that no injection
/// built (a view model, a screen) as roots, so that their `@Instance` properties are edges too:
///
/// ```swift
/// let graph = InjectionGraph.capture(roots: [model])
/// print(graph.mermaid)
/// for problem in graph.problems {
///   print(problem)
/// }
/// ```
///
/// Nodes are injections, with the strategy and the layer that built their instance, and the
/// roots; edges are `@Instance` properties, with their name and where they are declared,
/// resolved or not yet. ``problems`` lists what the edges prove: a `.shared` instance held for
/// the life of its world (a captive dependency), a reference cycle of `.shared` instances, and
/// injections that consumers declare but never resolved. See <doc:Diagnostics>.
///
/// > Important: The walk sees what `@Instance` properties hold. An instance held only by a
/// > closure or by SwiftUI state is invisible unless you pass its holder as a root.
public struct InjectionGraph: Sendable, Hashable, Codable {
  /// The injections and the roots.
  public var nodes: [Node]
  /// The `@Instance` properties, each from the node that declares it to the injection it
  /// consumes.
  public var edges: [Edge]
  /// The lifetime bugs the edges prove, and the injections never resolved.
  public var problems: [Problem]

  /// A graph of `nodes`, `edges` and `problems`, such as one decoded from its `Codable` form.
  ///
  /// ```swift
  /// let graph = InjectionGraph(nodes: [], edges: [], problems: [])
  /// ```
  ///
  /// - Parameters:
  ///   - nodes: The injections and the roots.
  ///   - edges: The `@Instance` properties.
  ///   - problems: What the edges prove.
  public init(nodes: [Node], edges: [Edge], problems: [Problem]) {
    self.nodes = nodes
    self.edges = edges
    self.problems = problems
  }

  /// Captures the graph of the current task's world, from every instance it keeps and from
  /// `roots`.
  ///
  /// The world is the global one, or the scope or test world the caller runs in. The walk
  /// starts from every `.singleton` and `.shared` instance the world holds now, and from each
  /// root, and follows resolved `@Instance` properties: in classes and their superclasses, in
  /// `@Observable` classes, in structs and in the struct properties they nest. It reads nothing
  /// but `@Instance` properties, so a user's object with a dangling `unowned` field is safe to
  /// walk, and it uses no recursion, so a graph of any depth is safe too.
  ///
  /// With `followingReferences`, it also follows ordinary strong references (stored
  /// properties, the standard library's collections, optionals, existentials, enums' payloads;
  /// <doc:Diagnostics> lists them) to reach more consumers:
  /// objects and structs that declare `@Instance` properties become nodes of kind
  /// ``Node/Kind/consumer``, and storage that many paths share is walked once. It never reads
  /// a `weak` or `unowned` property, an actor's plain stored properties, or the elements of a
  /// collection of plain values. It reads with no synchronization: follow references only while
  /// no other thread changes the objects reached.
  ///
  /// An actor's `@SendableInstance` properties are read as a class's `@Instance` ones are, with
  /// or without following: through what each published when it resolved or was assigned, never
  /// through the actor's state, so capturing while the actor runs is no data race. See
  /// <doc:Diagnostics#Actors>. The strong references it follows count for verdicts: a
  /// `.singleton` that keeps a consumer through them keeps that consumer's `.shared` instances,
  /// one problem for each `.shared` instance it keeps, however many references reach it.
  ///
  /// While it walks, the capture holds every instance it reads, as any holder does: a `.shared`
  /// instance whose last holder lets it go on another thread meanwhile lives until the capture
  /// returns, a resolution there gets it, not a new one, and its `deinit` runs as the capture
  /// returns, on the main actor. Capture in the test's world
  /// (`.isolatedInjections`), not the global one, so that no test beside it sees its world's
  /// instances kept.
  ///
  /// Fields are read from the types' reflection metadata, which Swift emits by default: a
  /// module built without it (`SWIFT_REFLECTION_METADATA_LEVEL = none`) shows the walk none.
  ///
  /// ```swift
  /// @Test(.isolatedInjections) @MainActor func screenGraphHasNoLifetimeBug() async {
  ///   let model = ProfileModel(userID: 42)
  ///   await model.load()
  ///   #expect(InjectionGraph.capture(roots: [model]).errors.isEmpty)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - roots: Objects or values that no injection built and that hold `@Instance`
  ///     properties: view models, screens, a whole app's root objects.
  ///   - followingReferences: Whether to follow ordinary strong references, not only
  ///     `@Instance` properties, to reach more consumers.
  /// - Returns: The graph, with its problems.
  @MainActor
  public static func capture(roots: [Any] = [], followingReferences: Bool = false) -> InjectionGraph {
    captureCountingWork(roots: roots, followingReferences: followingReferences).graph
  }

  /// The problems that are bugs: captive dependencies and reference cycles, without the
  /// injections never resolved, which are information.
  ///
  /// ```swift
  /// #expect(InjectionGraph.capture().errors.isEmpty)
  /// ```
  public var errors: [Problem] { problems.filter(\.isError) }
}
