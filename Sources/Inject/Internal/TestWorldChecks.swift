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

/// A strict test's check: the injections it reported, so that each is reported once.
@MainActor
final class StrictCheck {
  let report: @MainActor (UntestedResolution) -> Void
  var reported: Set<ObjectIdentifier> = []

  init(_ report: @escaping @MainActor (UntestedResolution) -> Void) {
    self.report = report
  }
}
