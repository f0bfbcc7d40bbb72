public import ServicePackage

// The types that the documentation's samples use without declaring them, for the samples
// compiled in DocumentationTests (2.0) and InjectLegacyTests (1.x).

/// A mock of the example's service.
public final class MockService: Service {
  public init() {}
  public func doWork() -> String { "mock work" }
}

/// A decorator: the overriding guide wraps the real service in it.
public final class LoggingService: Service {
  public let wrapped: any Service
  public init(wrapping service: any Service) { wrapped = service }
  public func doWork() -> String { "logged: \(wrapped.doWork())" }
}

/// The networking dependency of the migration guide.
public protocol Networking: AnyObject {
  func fetch()
}

public final class HTTPNetworking: Networking {
  public init() {}
  public func fetch() {}
}

public final class MockNetworking: Networking {
  public init() {}
  public func fetch() {}
}

/// The parser dependency of the migration guide.
public protocol Parser: AnyObject {}

public final class JSONParser: Parser {
  public init() {}
}

/// The dependency that the migration guide's actor uses.
public final class CrossDependencyA: Sendable {
  public init() {}
}

/// Stands in for SwiftUI's `View`, which Linux does not have.
@MainActor public protocol View {}
