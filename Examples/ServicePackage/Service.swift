public import Inject

/// A dependency that the example publishes under each strategy.
public protocol Service: AnyObject { func doWork() -> String }

/// The implementation, beside its published injections.
///
/// Its initializer is isolated to the main actor, which `Injection` allows because it builds
/// instances on the main actor. Each instance says when it is built and released.
@MainActor
public final class ServiceImplementation: Service {
  private static var built = 0

  /// Which instance this is, counting from `service #1`.
  public nonisolated let name: String

  /// Builds the next instance, and says so.
  public init() {
    Self.built += 1
    name = "service #\(Self.built)"
    print("  built    \(name)")
  }

  /// Says which instance did the work.
  public nonisolated func doWork() -> String { name }

  deinit {
    print("  released \(name)")
  }
}

/// One instance while anyone holds it.
public let sharedServiceInjection = Injection<any Service>(strategy: .shared, instance: ServiceImplementation())

/// One instance for the life of the process.
public let singletonServiceInjection = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation())

/// A new instance for every consumer.
public let onDemandServiceInjection = Injection<any Service>(strategy: .onDemand, instance: ServiceImplementation())
