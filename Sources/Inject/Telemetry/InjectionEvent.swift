/// Something an injection did, as a telemetry observes it.
///
/// Every event names the injection by its type and where it was published, and says where
/// it happened: the consumer's declaration for resolutions, the call site for overrides.
///
/// ```swift
/// final class PrintTelemetry: InjectionTelemetry {
///   func record(_ event: InjectionEvent) { print(event) }
/// }
/// // "Injection<Service> (ServicePackage/Services.swift:12): built by the published layer,
/// //  for App/Screen.swift:8"
/// ```
public struct InjectionEvent: Sendable, CustomStringConvertible {
  /// What happened.
  public enum Kind: Sendable, Equatable {
    /// A layer built a new instance for a consumer.
    case built(Layer)
    /// A layer returned the instance it stores (a singleton, or a shared instance still alive).
    case returnedFromStorage(Layer)
    /// A `.shared` layer kept a value strongly, because a struct or enum cannot be held weakly.
    case keptStrongly(Layer)
    /// A consumer's property was assigned: a local override for that consumer only.
    case localOverrideSet
    /// An override was pushed on the global stack; the stack is now `depth` deep.
    case overridePushed(depth: Int)
    /// An override was rolled back; the stack is now `depth` deep.
    case rolledBack(depth: Int)
    /// `rollbackOverride()` was called with no override on the stack.
    case nothingToRollBack
    /// An override was pushed on the global stack above a layer that a consumer of the global
    /// world resolved from (the first such consumer at `firstResolvedAt`): consumers that read
    /// it before keep their instance.
    ///
    /// A push is late only when something resolved from a layer it shadows: once the layers
    /// consumers resolved from are rolled back, a new push is not reported.
    case staleOverride(firstResolvedAt: CodeLocation)
    /// In a test process, an override was pushed on the global stack, outside any test world:
    /// it reaches every test running at the same time. Recorded once per call site.
    case globalOverrideInTest
    /// In a test process, an injection that publishes a test value built its live instance
    /// outside every test world (in the global world, or in a scope opened outside a test
    /// world). Recorded once per injection.
    case liveValueInTest
    /// In a strict test world (`.isolatedInjections(strict: true)`) that has ended, an injection with
    /// no test value and no override in the test built its live instance for a consumer made in
    /// the test and first read after it. While the test runs, this is an issue of the test;
    /// after it, a debug warning. Recorded once per injection and test.
    case liveValueAfterTest
    /// A session ended at ``InjectionEvent/location`` in the calling task's world, which released
    /// `released` instances it kept; ``InjectionEvent/injection`` names the session.
    case sessionEnded(released: Int)
    /// `end()` was called for a session with no generation in the calling task's world: it was
    /// never resolved there, or not since it last ended. Nothing changed.
    case nothingToEnd
    /// An instance of a session generation that ended at `endedAt` is still alive after it;
    /// ``InjectionEvent/injection`` names the instance's injection, and `heldBy` the path that
    /// holds it, as ``InjectionSession/Survivor/message`` words it.
    // NB: `indirect`, so that its payload takes one reference: a larger `Kind` costs every
    // event a copy of its bytes.
    indirect case survivedSession(endedAt: CodeLocation, heldBy: String)
    /// A resolution of a sendable injection for a consumer at ``InjectionEvent/location`` has
    /// waited five seconds for another thread's first build of `building` (an
    /// injection's label), which that thread runs inside the builds of `chain`, outermost first:
    /// a wait that may never end, if that thread waits in turn for this one outside Inject (a
    /// semaphore, a lock, a queue's `sync`). The resolution goes on waiting.
    indirect case waitingForBuild(building: String, chain: [String])
  }

  /// Which layer of an injection's configuration acted.
  public enum Layer: Sendable, Equatable, CustomStringConvertible {
    /// The configuration the injection was published with: its live instance.
    case published
    /// The published preview value, which an Xcode preview process resolves by default.
    case preview
    /// The published test value, which test worlds resolve by default.
    case test
    /// A published launch override, applied because of what `reason` says (such as
    /// `launch argument -mock-api`).
    case launchOverride(_ reason: String)
    /// The global override at this depth of the stack (1 is the first pushed).
    case override(depth: Int)
    /// An override that a test pushed in its test world, at this depth of the test's stack (1
    /// is the first pushed).
    case testOverride(depth: Int)
    /// A task-local override from `withOverride(_:operation:)` or the testing trait.
    case scoped

    /// "the published layer", "the preview value", "the test value", "the launch override
    /// (launch argument -mock-api)", "override layer 2", "the test's override layer 1", "a
    /// scoped override".
    public var description: String {
      switch self {
      case .published: "the published layer"
      case .preview: "the preview value"
      case .test: "the test value"
      case .launchOverride(let reason): "the launch override (\(reason))"
      case .override(let depth): "override layer \(depth)"
      case .testOverride(let depth): "the test's override layer \(depth)"
      case .scoped: "a scoped override"
      }
    }
  }

  /// What happened.
  public let kind: Kind
  /// The injection's type, such as `Injection<any Service>` or `SendableInjection<any ImageClient>`.
  public var injection: String {
    switch name {
    case .text(let text): text
    case .instanceType(let type, let kind): "\(kind.typeName)<\(type)>"
    }
  }
  /// The injection's type as given, or the type of its instances, named only when asked: so
  /// that recording an event formats nothing for a telemetry that drops it.
  private let name: Name
  /// Where the injection was published.
  public let publishedAt: CodeLocation
  /// Where it happened: the consumer's declaration, or the call site of an override.
  public let location: CodeLocation

  /// Creates an event; Inject creates them for you.
  ///
  /// - Parameters:
  ///   - kind: What happened.
  ///   - injection: The injection's type.
  ///   - publishedAt: Where the injection was published.
  ///   - location: Where it happened.
  public init(kind: Kind, injection: String, publishedAt: CodeLocation, location: CodeLocation) {
    self.init(kind: kind, name: .text(injection), publishedAt: publishedAt, location: location)
  }

  /// An event of an injection of `injectionKind` whose instances are of type `type`.
  init(
    kind: Kind, instances type: any Any.Type, of injectionKind: InjectionKind, publishedAt: CodeLocation,
    location: CodeLocation
  ) {
    self.init(kind: kind, name: .instanceType(type, injectionKind), publishedAt: publishedAt, location: location)
  }

  private init(kind: Kind, name: Name, publishedAt: CodeLocation, location: CodeLocation) {
    self.kind = kind
    self.name = name
    self.publishedAt = publishedAt
    self.location = location
  }

  private enum Name: Sendable {
    case text(String)
    case instanceType(any Any.Type, InjectionKind)
  }

  /// One line naming the injection, what happened and where.
  public var description: String {
    let what =
      switch kind {
      case .built(let layer): "built by \(layer), for \(location)"
      case .returnedFromStorage(let layer): "returned the instance stored by \(layer), to \(location)"
      case .keptStrongly(let layer):
        "\(layer) kept a value strongly under .shared (it cannot be held weakly), for \(location)"
      case .localOverrideSet: "local override set at \(location)"
      case .overridePushed(let depth): "override pushed at \(location) (stack depth \(depth))"
      case .rolledBack(let depth): "override rolled back at \(location) (stack depth \(depth))"
      case .nothingToRollBack: "rollback at \(location) with no override to roll back"
      case .staleOverride(let first):
        "override pushed at \(location) after the injection was first resolved at \(first); "
          + "consumers that resolved before keep their instance"
      case .globalOverrideInTest:
        "override pushed on the global stack at \(location) in a test process, outside any test "
          + "world: it reaches every test running at the same time, until it is rolled back"
      case .liveValueInTest:
        "built its live instance for \(location) outside every test world of a test process, although "
          + "it publishes a test value: the consumer resolved in the global world or in a scope opened "
          + "outside a test world (in a Task.detached, or in a test with neither .isolatedInjections nor "
          + ".overriding)"
      case .liveValueAfterTest:
        "built its live instance for \(location), a consumer made in a strict test whose world has ended: "
          + "the injection has no test value and the test did not override it"
      case .sessionEnded(let released):
        "ended at \(location) in the calling task's world, which released \(released) instance(s)"
      case .nothingToEnd:
        "end() at \(location) found no generation to end in the calling task's world: the session "
          + "was not resolved there since it began or last ended, so nothing changed"
      case .survivedSession(let endedAt, let heldBy):
        "is still alive after the session ended at \(endedAt): \(heldBy)"
      case .waitingForBuild(let building, let chain):
        "a resolution for \(location) has waited \(WaitGraph.reportAfterText) for another thread's build of "
          + "\(building), and goes on waiting; that thread builds \(chain.joined(separator: " → ")). If that "
          + "thread waits for this one (a semaphore, a lock, a queue's sync), neither ever ends"
      }
    return "\(injection) (\(publishedAt)): \(what)"
  }
}
