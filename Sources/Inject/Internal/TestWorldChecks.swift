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

  var built: [BuiltInstance] = []

  /// The objects built in the watched worlds that are still alive.
  var survivors: [LeakedInstance] {
    built.filter { $0.object != nil }.map { LeakedInstance(injection: $0.injection, firstResolvedAt: $0.location) }
  }
}

/// A strict test's checks: the injections it reported as untested, so that each is reported
/// once, and the overrides given in the test, to report those that nothing resolved.
@MainActor
final class StrictCheck {
  let report: @MainActor (UntestedResolution) -> Void
  var reported: Set<ObjectIdentifier> = []
  /// The overrides given in the test, in order: scoped ones and pushes on the test's stack.
  private var given: [GivenOverride] = []
  /// The identifiers of the layers resolved in the test since an override was given.
  private var resolved: Set<ObjectIdentifier> = []

  private struct GivenOverride {
    /// The `Layer<T>`, held so that its identifier stays unique until the test ends.
    let layer: AnyObject
    /// The injection it overrides, as diagnostics name it.
    let injection: String
    /// Where the override was given.
    let location: CodeLocation
  }

  init(_ report: @escaping @MainActor (UntestedResolution) -> Void) {
    self.report = report
  }

  /// Notes that the test gave `layer` as an override of `injection`.
  func noteGiven<T>(_ layer: Layer<T>, of injection: Injection<T>) {
    given.append(GivenOverride(layer: layer, injection: injection.label, location: layer.location))
  }

  /// Notes that a consumer in the test resolved through `layer`.
  func noteResolved(_ layer: AnyObject) {
    if !given.isEmpty {
      resolved.insert(ObjectIdentifier(layer))
    }
  }

  /// The overrides given in the test that no consumer resolved through.
  var unusedOverrides: [UnusedOverride] {
    given.filter { !resolved.contains(ObjectIdentifier($0.layer)) }.map {
      UnusedOverride(injection: $0.injection, location: $0.location)
    }
  }
}
