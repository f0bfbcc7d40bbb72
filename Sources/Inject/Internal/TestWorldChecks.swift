/// The objects built in a test's world and the worlds inside it, watched weakly, so that those
/// still alive after the test can be reported.
@MainActor
final class LeakWatch {
  /// An object built in a watched world.
  struct BuiltInstance {
    weak var object: AnyObject?
    /// The injection that built it, as diagnostics name it.
    let injection: String
    /// Where the consumer that first resolved it was declared.
    let location: CodeLocation
  }

  /// The objects built, those released since the last pruning included.
  private var built: [BuiltInstance] = []
  /// When `built` grows to this size, the entries of released objects are removed, so that a
  /// long test that builds and releases objects without end keeps a bounded list.
  private var pruneAt = 64

  /// Watches `object`, which `injection` built for a consumer at `location`.
  func watch(_ object: AnyObject, builtBy injection: String, for location: CodeLocation) {
    built.append(BuiltInstance(object: object, injection: injection, location: location))
    if built.count >= pruneAt {
      built.removeAll { $0.object == nil }
      pruneAt = max(64, built.count * 2)
    }
  }

  /// The objects built in the watched worlds that are still alive.
  var survivors: [LeakedInstance] {
    built.filter { $0.object != nil }.map { LeakedInstance(injection: $0.injection, firstResolvedAt: $0.location) }
  }
}

/// A strict test's checks: the injections it reported as untested, so that each is reported
/// once, and the overrides given in the test, to report those that nothing resolved.
///
/// It holds no override: each is watched weakly, and forgotten once something resolved through
/// it, so that a long test keeps a bounded list and releases what its overrides captured when
/// it pops them, on the main actor as it would with no check.
@MainActor
final class StrictCheck {
  let report: @MainActor (UntestedResolution) -> Void
  var reported: Set<ObjectIdentifier> = []
  /// The overrides given in the test that nothing resolved through yet, by their layer's
  /// identifier.
  private var pending: [ObjectIdentifier: GivenOverride] = [:]
  /// The overrides released before anything resolved through them.
  private var releasedUnused: [GivenOverride] = []
  /// How many overrides were given, to report them in order.
  private var given = 0

  private struct GivenOverride {
    /// The `Layer<T>`, held weakly: a popped override is released as it would be with no check.
    weak var layer: AnyObject?
    /// The injection it overrides, as diagnostics name it.
    let injection: String
    /// Where the override was given.
    let location: CodeLocation
    /// Its rank among the overrides given in the test.
    let order: Int
  }

  init(_ report: @escaping @MainActor (UntestedResolution) -> Void) {
    self.report = report
  }

  /// Notes that the test gave `layer` as an override of `injection`, pushed in `function` if it
  /// was pushed, unless it is the suite's set-up (``SuiteSetUp``), not the test's.
  func noteGiven<T>(_ layer: Layer<T>, of injection: Injection<T>, pushedIn function: StaticString? = nil) {
    guard !SuiteSetUp.gives(layer, of: injection, pushedIn: function) else { return }
    let key = ObjectIdentifier(layer)
    // A released layer's identifier can be reused by a new one: the released one stays unused.
    if let released = pending[key], released.layer == nil {
      releasedUnused.append(released)
    }
    given += 1
    pending[key] = GivenOverride(layer: layer, injection: injection.label, location: layer.location, order: given)
  }

  /// Notes that a consumer in the test resolved through `layer`.
  func noteResolved(_ layer: AnyObject) {
    let key = ObjectIdentifier(layer)
    if !pending.isEmpty, pending[key]?.layer === layer {
      pending[key] = nil
    }
  }

  /// The overrides given in the test that no consumer resolved through, in the order given.
  var unusedOverrides: [UnusedOverride] {
    (releasedUnused + pending.values).sorted { $0.order < $1.order }.map {
      UnusedOverride(injection: $0.injection, location: $0.location)
    }
  }
}

/// What a suite gives each of its tests: its set-up, not one test's, which a strict test does
/// not report as unused when the test leaves it untouched.
///
/// An `override(with:)` pushed by an initializer (a suite's `init()`) is set-up by where it is
/// pushed; an override trait applied to a suite, by this task-local, which the trait sets around
/// the suite's tests.
package enum SuiteSetUp {
  /// An override trait applied to a suite: the injection it overrides and where it was applied.
  ///
  /// Both, so that a test's own trait that overrides another injection from the same place (a
  /// helper that makes traits, which every use calls at one location) is still the test's.
  package struct Site: Equatable, Sendable {
    let injection: ObjectIdentifier
    let location: CodeLocation

    /// The trait that overrides `injection`, applied at `location`.
    package nonisolated init<T>(_ injection: Injection<T>, at location: CodeLocation) {
      self.injection = ObjectIdentifier(injection)
      self.location = location
    }

    /// The trait that overrides the sendable `injection`, applied at `location`.
    package nonisolated init<T>(_ injection: SendableInjection<T>, at location: CodeLocation) {
      self.injection = ObjectIdentifier(injection)
      self.location = location
    }
  }

  /// The override traits of the suites around the current test.
  @TaskLocal static var sites: [Site] = []

  /// Whether `layer`, an override of `injection` pushed in `function` if it was pushed, is the
  /// set-up of the current test's suite: pushed by an initializer, or given by a suite's trait.
  static func gives<T>(_ layer: Layer<T>, of injection: Injection<T>, pushedIn function: StaticString?) -> Bool {
    if let function, "\(function)".hasPrefix("init(") {
      return true
    }
    return sites.contains(Site(injection, at: layer.location))
  }
}

/// Runs `operation`, a suite's tests, with the override that the suite's trait at `site` gives
/// each of them counted as the suite's set-up.
package func withSuiteSetUpOverride<R>(
  _ site: SuiteSetUp.Site, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> R
) async rethrows -> R {
  try await SuiteSetUp.$sites.withValue(SuiteSetUp.sites + [site], operation: operation, isolation: isolation)
}
