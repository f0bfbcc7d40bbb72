/// The objects built in a test's world and the worlds inside it, by injections of either kind,
/// watched weakly, so that those still alive after the test can be reported.
final class LeakWatch: Sendable {
  /// An object built in a watched world.
  private struct BuiltInstance: Sendable {
    let object: SessionGeneration.WeakInstance
    /// The injection that built it, as diagnostics name it.
    let injection: String
    /// Where the consumer that first resolved it was declared.
    let location: CodeLocation
  }

  private struct State: Sendable {
    /// The objects built, those released since the last pruning included.
    var built: [BuiltInstance] = []
    /// When `built` is pruned, which forgets the entries of released objects, so that a
    /// long test that builds and releases objects without end keeps a bounded list.
    var pruning = PruneSchedule()
  }

  private let state = Locked(State())

  /// Watches `instance`, if it is an object, which `injection` built for a consumer at
  /// `location`.
  ///
  /// Called by the thread that built it: the main actor for an instance of a main-actor
  /// injection, which only it reads back (``survivors``), any thread for a `Sendable` one.
  func watch<T>(_ instance: T, builtBy injection: String, for location: CodeLocation) {
    let boxed = instance as Any
    guard type(of: boxed) is AnyClass else { return }
    let object = SessionGeneration.WeakInstance(object: boxed as AnyObject)
    state.withLock { state in
      state.built.append(BuiltInstance(object: object, injection: injection, location: location))
      if state.pruning.isDue(state.built.count) {
        state.built.removeAll { $0.object.object == nil }
        state.pruning.pruned(leaving: state.built.count)
      }
    }
  }

  /// The objects built in the watched worlds that are still alive.
  var survivors: [LeakedInstance] {
    state.withLock { $0.built }.filter { $0.object.object != nil }.map {
      LeakedInstance(injection: $0.injection, firstResolvedAt: $0.location)
    }
  }
}

/// A strict test's checks: the injections it reported as untested, so that each is reported
/// once, and the overrides given in the test, to report those that nothing resolved; for
/// injections of both kinds, resolved on any thread.
///
/// It holds no override: each is watched weakly, and forgotten once something resolved through
/// it, so that a long test keeps a bounded list and releases what its overrides captured when
/// it pops them, as it would with no check.
final class StrictCheck: Sendable {
  /// Reports an untested resolution, on the thread that resolved, inside the test's tasks.
  private let report: @Sendable (UntestedResolution) -> Void

  private struct State: Sendable {
    var reported: Set<ObjectIdentifier> = []
    /// The overrides given in the test that nothing resolved through yet, by their layer's
    /// identifier.
    var pending: [ObjectIdentifier: GivenOverride] = [:]
    /// The overrides released before anything resolved through them.
    var releasedUnused: [GivenOverride] = []
    /// How many overrides were given, to report them in order.
    var given = 0
    /// Whether the test has ended: a consumer made in it may still resolve in its configuration
    /// afterwards, which can no longer be an issue of the test.
    var hasEnded = false
  }

  private struct GivenOverride: Sendable {
    /// The layer, held weakly: a popped override is released as it would be with no check.
    weak var layer: (any AnyObject & Sendable)?
    /// The injection it overrides, as diagnostics name it.
    let injection: String
    /// Where the override was given.
    let location: CodeLocation
    /// Its rank among the overrides given in the test.
    let order: Int
  }

  private let state = Locked(State())

  init(_ report: @escaping @Sendable (UntestedResolution) -> Void) {
    self.report = report
  }

  /// Notes that the test gave `layer` as an override of the injection labeled `injection`,
  /// pushed in `function` if it was pushed, unless it is the suite's set-up (``SuiteSetUp``),
  /// not the test's.
  func noteGiven<D: DoorTypes>(
    _ layer: Layer<D>, of injection: D.Injection, label: String, pushedIn function: StaticString? = nil
  ) {
    noteGiven(layer, at: layer.location, of: injection, label: label, pushedIn: function)
  }

  /// Notes that the test gave `given` (a layer, or a family override's token), at `location`, as
  /// an override of `overridden` (an injection or a family) labeled `label`; see
  /// ``noteGiven(_:of:label:pushedIn:)``.
  func noteGiven(
    _ given: any AnyObject & Sendable, at location: CodeLocation, of overridden: some AnyObject & Sendable,
    label: String, pushedIn function: StaticString? = nil
  ) {
    guard !SuiteSetUp.gives(at: location, of: overridden, pushedIn: function) else { return }
    let key = ObjectIdentifier(given)
    state.withLock { state in
      // A released layer's identifier can be reused by a new one: the released one stays unused.
      if let released = state.pending[key], released.layer == nil {
        state.releasedUnused.append(released)
      }
      state.given += 1
      state.pending[key] = GivenOverride(layer: given, injection: label, location: location, order: state.given)
    }
  }

  /// Notes that a consumer in the test resolved through `layer`.
  func noteResolved(_ layer: AnyObject) {
    let key = ObjectIdentifier(layer)
    state.withLock { state in
      if !state.pending.isEmpty, state.pending[key]?.layer === layer {
        state.pending[key] = nil
      }
    }
  }

  /// Reports, once per injection in the test and the scopes inside it, that `injection`,
  /// labeled `label`, built its live instance for a consumer at `location`.
  ///
  /// Returns `true`, reporting nothing, the first time it is so once the test has ended: the
  /// caller warns then instead.
  @discardableResult
  func noteUntested(_ injection: AnyObject, label: String, at location: CodeLocation) -> Bool {
    // Reported under the lock, so that once `end()` has returned no report is under way.
    state.withLock { state in
      guard state.reported.insert(ObjectIdentifier(injection)).inserted else { return false }
      if state.hasEnded {
        return true
      }
      report(UntestedResolution(injection: label, location: location))
      return false
    }
  }

  /// Notes that the test has ended.
  func end() {
    state.withLock { $0.hasEnded = true }
  }

  /// The overrides given in the test that no consumer resolved through, in the order given.
  var unusedOverrides: [UnusedOverride] {
    state.withLock { state in
      (state.releasedUnused + state.pending.values).sorted { $0.order < $1.order }.map {
        UnusedOverride(injection: $0.injection, location: $0.location)
      }
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

    /// The trait that overrides `injection`, of either kind, applied at `location`.
    package init(_ injection: some AnyObject & Sendable, at location: CodeLocation) {
      self.injection = ObjectIdentifier(injection)
      self.location = location
    }
  }

  /// The override traits of the suites around the current test.
  @TaskLocal static var sites: [Site] = []

  /// Whether the override given at `location`, of `injection` (or a family), pushed in `function` if it was pushed, is the
  /// set-up of the current test's suite: pushed by an initializer, or given by a suite's trait.
  static func gives(
    at location: CodeLocation, of injection: some AnyObject & Sendable, pushedIn function: StaticString?
  ) -> Bool {
    if let function, "\(function)".hasPrefix("init(") {
      return true
    }
    return sites.contains(Site(injection, at: location))
  }
}

/// Runs `operation`, a suite's tests, with the override that the suite's trait at `site` gives
/// each of them counted as the suite's set-up.
package func withSuiteSetUpOverride<R>(
  _ site: SuiteSetUp.Site, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> R
) async rethrows -> R {
  try await SuiteSetUp.$sites.withValue(SuiteSetUp.sites + [site], operation: operation, isolation: isolation)
}
