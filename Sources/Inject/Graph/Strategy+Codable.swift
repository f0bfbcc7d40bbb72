extension Strategy: Codable {
  /// Decodes a strategy from its name: `"shared"`, `"singleton"`, `"onDemand"`, or
  /// `"session(name)"`.
  ///
  /// A session strategy decodes to a new ``InjectionSession`` of that name: sessions compare by
  /// identity, so it equals no other session; compare ``InjectionSession/name`` instead.
  ///
  /// ```swift
  /// let strategy = try JSONDecoder().decode(Strategy.self, from: Data(#""shared""#.utf8))
  /// ```
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` if the value is not a string naming a strategy.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    if let strategy = Self.allCases.first(where: { "\($0)" == name }) {
      self = strategy
    } else if name.hasPrefix("session("), name.hasSuffix(")") {
      self = .session(InjectionSession(String(name.dropFirst("session(".count).dropLast())))
    } else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "No strategy is named \(name); expected shared, singleton, onDemand or session(name).")
    }
  }

  /// Encodes the strategy as its name: `"shared"`, `"singleton"`, `"onDemand"`, or
  /// `"session(name)"` with the session's name.
  ///
  /// ```swift
  /// let data = try JSONEncoder().encode(Strategy.singleton)  // "singleton"
  /// ```
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode("\(self)")
  }
}
