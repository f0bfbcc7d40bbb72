extension InjectionGraph {
  /// An injection or a root of the graph.
  ///
  /// ```swift
  /// for node in graph.nodes where node.kind == .injection {
  ///   print(node.type, node.strategy.map { "\($0)" } ?? "", node.isResolved)
  /// }
  /// ```
  public struct Node: Sendable, Hashable, Codable, Identifiable {
    /// What the node stands for.
    public enum Kind: String, Sendable, Hashable, Codable {
      /// An injection, standing for the instance it built in the world (or for every instance,
      /// under `.onDemand`).
      case injection
      /// An object or value given to ``InjectionGraph/capture(roots:followingReferences:)``.
      case root
      /// An object or a struct that declares `@Instance` properties, reached by following
      /// ordinary references (`followingReferences: true`).
      case consumer
    }

    /// The node's index in ``InjectionGraph/nodes``, which edges name.
    public var id: Int
    /// Whether it is an injection or a root.
    public var kind: Kind
    /// The injection's type parameter as Swift prints it, such as `UserRepository` for an
    /// `Injection<any UserRepository>` (an existential prints without `any`; a raw identifier
    /// prints without its backticks), or the type of the root or the consumer.
    public var type: String
    /// The strategy of the layer that built the instance (an override may change the
    /// published one), or the strategy that applies now if none is stored; `nil` for a root
    /// or a consumer.
    public var strategy: Strategy?
    /// Where the injection was published; `nil` for a root or a consumer.
    public var publishedAt: String?
    /// The layer that built the instance, such as "the published layer" or "the test value";
    /// `nil` for a root or a consumer, or for an injection that built nothing this walk could see.
    public var builtBy: String?
    /// Whether the injection holds an instance or a consumer resolved it; `true` for a root
    /// or a consumer.
    public var isResolved: Bool
  }

  /// An `@Instance` property: from the node that declares it to the injection it consumes.
  ///
  /// ```swift
  /// for edge in graph.edges where !edge.isResolved {
  ///   print("\(edge.property) at \(edge.location) is not resolved yet")
  /// }
  /// ```
  public struct Edge: Sendable, Hashable, Codable {
    /// The ``Node/id`` of the node whose instance declares the property.
    public var from: Int
    /// The ``Node/id`` of the injection the property consumes.
    public var to: Int
    /// The property's name, without the wrapper's underscore.
    public var property: String
    /// Where the property is declared, as `Module/File.swift:line`.
    public var location: String
    /// Whether any instance walked holds a resolved or assigned value in the property.
    public var isResolved: Bool
  }
}
