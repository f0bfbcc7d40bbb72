public import Inject

/// A dependency that the example publishes under each strategy.
public protocol Service: AnyObject {
  /// Which instance this is, such as `shared #1`.
  var name: String { get }
  /// Does the service's work.
  func doWork() -> String
}

/// The implementation, beside its published injections.
///
/// Its initializer is isolated to the
/// main actor, which `Injection` allows because it builds instances on the main actor.
@MainActor
public final class ServiceImplementation: Service {
  private static var built: [String: Int] = [:]

  /// Which instance this is, such as `shared #1`.
  public nonisolated let name: String

  /// Builds the next instance of `kind`, and says so.
  public init(_ kind: String = "service") {
    Self.built[kind, default: 0] += 1
    name = "\(kind) #\(Self.built[kind, default: 0])"
    print("  built    \(name)")
  }

  /// Says which instance did the work.
  public nonisolated func doWork() -> String { "work done by \(name)" }

  deinit {
    print("  released \(name)")
  }
}

/// One instance while anyone holds it.
public let serviceShared = Injection<any Service>(strategy: .shared, instance: ServiceImplementation("shared"))

/// One instance for the life of the process.
public let serviceSingleton = Injection<any Service>(
  strategy: .singleton, instance: ServiceImplementation("singleton"))

/// A new instance for every consumer.
public let serviceOnDemand = Injection<any Service>(
  strategy: .onDemand, instance: ServiceImplementation("on demand"))
