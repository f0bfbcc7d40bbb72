extension InjectionGraph {
  /// A lifetime bug that the graph's `@Instance` edges prove, or an injection never resolved.
  ///
  /// Each names its path, from holder to held, with the types, the properties and where they
  /// are declared, and says how to fix it:
  ///
  /// ```swift
  /// for problem in InjectionGraph.capture().errors {
  ///   print(problem)
  /// }
  /// ```
  ///
  /// prints, for a `.singleton` account store that holds a `.shared` sign-in flow, "Captive
  /// dependency: Injection<AccountStore> (.singleton, published at App/AccountStore.swift:17)
  /// holds Injection<SignInFlow> (.shared, published at App/SignInFlow.swift:11) through
  /// `signInFlow` at App/AccountStore.swift:15. …"; see <doc:Diagnostics>.
  ///
  /// Verdicts rest on `@Instance` edges, whose strength is known: an edge holds its instance
  /// strongly for the consumer's life. A capture that follows references counts the strong
  /// references it followed too; ``path`` lists the `@Instance` edges among them, ``followed``
  /// the others.
  public struct Problem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Sendable, Hashable, Codable {
      /// An instance kept for the life of its world (a `.singleton`, or a `.shared` value kept
      /// strongly) holds a `.shared` instance through `@Instance` (or strong references
      /// followed): the `.shared` instance is never released, a `.singleton` in disguise. Or it
      /// holds a `.session` instance, which then outlives its session; or a `.session` instance
      /// holds a `.shared` one, which is then released only when the session ends.
      case captiveDependency
      /// `.shared` instances hold each other through `@Instance` (or strong references
      /// followed): none of them is ever released.
      case referenceCycle
      /// Consumers declare the injection, but none resolved it: information, not an error.
      case neverResolved
    }

    /// What is wrong.
    public var kind: Kind
    /// The edges from the first holder to the last held, in order.
    ///
    /// For a cycle, back to the first; for an injection never resolved, its consumers'
    /// properties. Strong references followed are not edges: a path made of them only has none,
    /// and ``followed`` lists them.
    public var path: [Edge]
    /// The strong references followed on the path, in order, when the capture follows
    /// references: each from a node to the next node they reach, with an empty
    /// ``Edge/property`` and ``Edge/location``.
    ///
    /// The pictures draw them dashed and red. A graph encoded before this property existed
    /// decodes with none.
    public var followed: [Edge] = []
    /// What is wrong, along the path with the types and locations, and how to fix it.
    public var message: String

    /// Whether it is a bug (a captive dependency or a reference cycle).
    public var isError: Bool { kind != .neverResolved }

    /// ``message``.
    public var description: String { message }

    private enum CodingKeys: String, CodingKey {
      case kind, path, followed, message
    }
  }
}

extension InjectionGraph.Problem {
  /// Decodes a problem, with no ``followed`` references if the encoded one has none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    kind = try container.decode(Kind.self, forKey: .kind)
    path = try container.decode([InjectionGraph.Edge].self, forKey: .path)
    followed = try container.decodeIfPresent([InjectionGraph.Edge].self, forKey: .followed) ?? []
    message = try container.decode(String.self, forKey: .message)
  }
}
