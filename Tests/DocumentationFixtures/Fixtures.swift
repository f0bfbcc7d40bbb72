public import ServicePackage

// The types that the documentation's samples use without declaring them, for the samples
// compiled in DocumentationTests (2.0) and InjectLegacyTests (1.x).

/// A mock of the example's service.
public final class MockService: Service {
  /// A mock.
  public init() {}
  /// Says it is the mock.
  public func doWork() -> String { "mock work" }
}

/// A decorator: the overriding guide wraps the real service in it.
public final class LoggingService: Service {
  /// The decorated service.
  public let wrapped: any Service
  /// Decorates `service`.
  public init(wrapping service: any Service) { wrapped = service }
  /// The decorated service's work, marked.
  public func doWork() -> String { "logged: \(wrapped.doWork())" }
}

/// The networking dependency of the migration guide.
public protocol Networking: AnyObject {
  /// Fetches.
  func fetch()
}

/// The real networking.
public final class HTTPNetworking: Networking {
  /// A client.
  public init() {}
  /// Fetches nothing, here.
  public func fetch() {}
}

/// A mock networking.
public final class MockNetworking: Networking {
  /// A mock.
  public init() {}
  /// Fetches nothing.
  public func fetch() {}
}

/// The parser dependency of the migration guide.
public protocol Parser: AnyObject {}

/// The real parser.
public final class JSONParser: Parser {
  /// A parser.
  public init() {}
}

/// The dependency that the migration guide's actor uses.
public final class CrossDependencyA: Sendable {
  /// A dependency.
  public init() {}
}

/// Stands in for SwiftUI's `View`, which Linux does not have.
@MainActor public protocol View {}
