extension Strategy: Codable {
  /// Decodes a strategy from its name: `"shared"`, `"singleton"` or `"onDemand"`.
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
    guard let strategy = Self.allCases.first(where: { "\($0)" == name }) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "No strategy is named \(name); expected shared, singleton or onDemand.")
    }
    self = strategy
  }

  /// Encodes the strategy as its name: `"shared"`, `"singleton"` or `"onDemand"`.
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
