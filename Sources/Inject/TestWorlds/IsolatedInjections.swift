/// Runs `operation` in a fresh world of injections: every injection that it resolves, in this
/// task and the tasks it creates, keeps its `.singleton` and `.shared` instances in that world,
/// never in the global one.
///
/// The world starts with nothing stored and reads the global configuration live; the overrides
/// of enclosing scopes still apply. So code inside sees the same dependency graph whatever ran
/// before it or runs beside it:
///
/// ```swift
/// @Test @MainActor func eachWorldBuildsItsOwnRepository() {
///   let first = withIsolatedInjections { Reader().repository }
///   let second = withIsolatedInjections { Reader().repository }
///   #expect(first !== second)
/// }
/// ```
///
/// It is a test world: injections published with a test value resolve it by default (see
/// `Injection.init(strategy:instance:preview:test:launchOverrides:fileID:line:)`), unless an
/// override applies. Every `withOverride` scope opens a world too, which is a test world when
/// opened inside one. The world's instances are released when `operation` has returned and no
/// task created inside is still alive.
///
/// It runs on the caller's thread, in any isolation: a thread of its own opens a test world too.
///
/// - Parameter operation: The code that resolves in the new world.
/// - Returns: What `operation` returns.
public func withIsolatedInjections<R>(operation: () throws -> R) rethrows -> R {
  try World(parent: World.current, isTest: true).run(operation)
}

/// Runs the asynchronous `operation` in a fresh world of injections; see
/// `withIsolatedInjections(operation:)`.
///
/// ```swift
/// @Test @MainActor func loadsThroughTheTestClient() async {
///   let model = ProfileModel(userID: User.sample.id)
///   await withIsolatedInjections {
///     await model.load()
///   }
///   #expect(model.state == .loaded(.sample))
/// }
/// ```
///
/// - Parameter operation: The code that resolves in the new world.
/// - Returns: What `operation` returns.
@MainActor
public func withIsolatedInjections<R>(operation: () async throws -> R) async rethrows -> R {
  try await World(parent: World.current, isTest: true).run(isolation: MainActor.shared, operation)
}

/// An instance built in an isolated world that was still alive after the world's scope ended:
/// held from outside it, by a global or a task that outlived the scope.
package struct LeakedInstance: Sendable, CustomStringConvertible {
  /// The injection that built it, with where it was published.
  package let injection: String
  /// Where the consumer that first resolved it was declared.
  package let firstResolvedAt: CodeLocation

  package var description: String {
    "\(injection): an instance built in the test's world, first resolved at \(firstResolvedAt), "
      + "is still alive after the test. Something outside the test holds it: a global, a static, "
      + "or a task that outlived the test."
  }
}

/// A resolution of an injection's live instance in a strict test: the injection has no test
/// value, and the test does not override it.
package struct UntestedResolution: Sendable, CustomStringConvertible {
  /// The injection, with where it was published.
  package let injection: String
  /// Where the consumer that resolved it was declared.
  package let location: CodeLocation

  package init(injection: String, location: CodeLocation) {
    (self.injection, self.location) = (injection, location)
  }

  package var description: String {
    "\(injection) was resolved for \(location) in a strict test, but it has no test value and the "
      + "test does not override it, so the test used the live implementation. To fix this, publish "
      + "a test value (Injection(strategy:instance:test:)), or override it in the test "
      + "(.overriding(_:with:) or withOverride)."
  }
}

/// An override given in a strict test that no consumer in the test resolved through.
package struct UnusedOverride: Sendable, CustomStringConvertible {
  /// The injection it overrides, with where it was published.
  package let injection: String
  /// Where the override was given: a trait, a `withOverride` or an `override(with:)`.
  package let location: CodeLocation

  package var description: String {
    "\(injection): the override given at \(location) overrides something the test never resolved: is the "
      + "test overriding the wrong dependency? (An override given after a .singleton that depends on it was "
      + "resolved in the test comes too late for that singleton.)"
  }
}

/// Runs `operation` in a fresh test world, as `withIsolatedInjections(operation:)`, with the
/// checks of the testing traits.
///
/// - Parameters:
///   - reportLeaks: If given, called once the world is released with the objects built in it
///     that are still alive.
///   - reportUntested: If given, called once per injection that resolves its live instance in
///     the world (one with neither a test value nor an override), on the thread that resolved.
///   - reportUnused: If given with `reportUntested`, called once the operation has returned for
///     every override given in the world that no consumer resolved through.
///   - checkGraph: If given, run in the world and in every world opened inside it as its scope
///     ends, while it still holds what it built.
///   - operation: The code that resolves in the new world.
/// - Returns: What `operation` returns.
@MainActor
package func withIsolatedInjections<R>(
  reportingLeaks reportLeaks: (@MainActor ([LeakedInstance]) -> Void)?,
  reportingUntested reportUntested: (@Sendable (UntestedResolution) -> Void)? = nil,
  reportingUnused reportUnused: (@MainActor (UnusedOverride) -> Void)? = nil,
  checkingGraph checkGraph: (@MainActor @Sendable () -> Void)? = nil,
  operation: () async throws -> R
) async rethrows -> R {
  let leakWatch = reportLeaks == nil ? nil : LeakWatch()
  let strictCheck = reportUntested.map(StrictCheck.init)
  defer {
    strictCheck?.end()
    if let reportUnused, let strictCheck {
      strictCheck.unusedOverrides.forEach(reportUnused)
    }
    if let reportLeaks, let leakWatch {
      reportLeaks(leakWatch.survivors)
    }
  }
  return try await World(
    parent: World.current, isTest: true, leakWatch: leakWatch, strictCheck: strictCheck, graphCheck: checkGraph
  ).run(isolation: MainActor.shared, operation)
}
