/// What an ``APIClient`` throws.
public enum APIError: Error, Equatable, CustomStringConvertible {
  /// The server has no user with this identifier.
  case notFound(id: Int)

  /// Says what went wrong, for the screen that shows it.
  public var description: String {
    switch self {
    case .notFound(let id): "no user with id \(id)"
    }
  }
}
