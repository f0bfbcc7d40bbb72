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
    /// prints without its backticks), with a family member's key after it, as in
    /// `ChatRoomStore[42]`; or the type of the root or the consumer.
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
    /// Whether the injection is a ``SendableInjection``, resolved from any isolation; `false` for
    /// an ``Injection``, a root or a consumer.
    ///
    /// A graph encoded before this property existed decodes with `false`.
    public var isSendable: Bool = false
    /// For a member of an ``InjectionFamily`` or a ``SendableInjectionFamily``, the family, as
    /// `InjectionFamily<Int, ChatRoomStore> (Chat/ChatRoomStore.swift:12)`; `nil` otherwise.
    ///
    /// A graph encoded before this property existed decodes with `nil`.
    public var family: String?

    /// `Injection` or `SendableInjection`, as messages name the node's kind of injection.
    var injectionTypeName: String { (isSendable ? InjectionKind.sendable : .mainActor).typeName }
  }

  /// An `@Instance` or `@SendableInstance` property, from the node that declares it to the
  /// injection it consumes; or what an injection's factory resolved while it built, from that
  /// injection to the one it resolved (``Kind/build``).
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
    /// The property's name, without the wrapper's underscore; empty for a ``Kind/build`` edge.
    public var property: String
    /// Where the property is declared, or, for a ``Kind/build`` edge, where the factory resolved
    /// the injection, as `Module/File.swift:line`.
    public var location: String
    /// Whether any instance walked holds a resolved or assigned value in the property; `true`
    /// for a ``Kind/build`` edge.
    public var isResolved: Bool
    /// What the edge stands for.
    ///
    /// A graph encoded before this property existed decodes with
    /// ``Kind/property``.
    public var kind: Kind = .property

    /// What an edge stands for.
    public enum Kind: String, Sendable, Hashable, Codable {
      /// A consumer property (`@Instance`, `@SendableInstance`) that holds what it resolves.
      case property
      /// What the factory of the injection at ``Edge/from`` resolved while it built (through
      /// `resolve()` or a consumer it read), which its instance is taken to hold, as it holds
      /// what its initializer is given.
      case build
    }
  }
}

extension InjectionGraph.Node {
  private enum CodingKeys: String, CodingKey {
    case id, kind, type, strategy, publishedAt, builtBy, isResolved, isSendable, family
  }

  /// Decodes a node, as a main-actor injection's if the encoded one does not say.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    kind = try container.decode(Kind.self, forKey: .kind)
    type = try container.decode(String.self, forKey: .type)
    strategy = try container.decodeIfPresent(Strategy.self, forKey: .strategy)
    publishedAt = try container.decodeIfPresent(String.self, forKey: .publishedAt)
    builtBy = try container.decodeIfPresent(String.self, forKey: .builtBy)
    isResolved = try container.decode(Bool.self, forKey: .isResolved)
    isSendable = try container.decodeIfPresent(Bool.self, forKey: .isSendable) ?? false
    family = try container.decodeIfPresent(String.self, forKey: .family)
  }
}

extension InjectionGraph.Edge {
  private enum CodingKeys: String, CodingKey {
    case from, to, property, location, isResolved, kind
  }

  /// Decodes an edge, as a property's if the encoded one does not say.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    from = try container.decode(Int.self, forKey: .from)
    to = try container.decode(Int.self, forKey: .to)
    property = try container.decode(String.self, forKey: .property)
    location = try container.decode(String.self, forKey: .location)
    isResolved = try container.decode(Bool.self, forKey: .isResolved)
    kind = try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .property
  }
}
