/// Runs `operation` in a fresh world of injections: every injection that it resolves, in this
/// task and the tasks it creates, keeps its `.singleton` and `.shared` instances in that world,
/// never in the global one.
///
/// The world starts with nothing stored and reads the global configuration live; the overrides
/// of enclosing scopes still apply. So code inside sees the same dependency graph whatever ran
/// before it or runs beside it:
///
/// ```swift
/// @Test func buildsItsOwnRepository() {
///   withIsolatedInjections {
///     #expect(Consumer().service !== shared)
///   }
/// }
/// ```
///
/// Every `withOverride` scope and testing trait opens such a world too; this function opens one
/// with no override. The world's instances are released when `operation` has returned and no
/// task created inside is still alive.
///
/// - Parameter operation: The code that resolves in the new world.
/// - Returns: What `operation` returns.
@MainActor
public func withIsolatedInjections<R>(operation: () throws -> R) rethrows -> R {
  try World(parent: .current).run(operation)
}

/// Runs the asynchronous `operation` in a fresh world of injections; see
/// `withIsolatedInjections(operation:)`.
///
/// ```swift
/// @Test func loadsWithItsOwnGraph() async throws {
///   try await withIsolatedInjections {
///     try await ProfileModel().load()
///   }
/// }
/// ```
///
/// - Parameter operation: The code that resolves in the new world.
/// - Returns: What `operation` returns.
@MainActor
public func withIsolatedInjections<R>(operation: () async throws -> R) async rethrows -> R {
  try await World(parent: .current).run(operation)
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

/// Runs `operation` in a fresh world, as `withIsolatedInjections(operation:)`, then calls
/// `report` with the instances built in it that are still alive once the world is released.
@MainActor
package func withIsolatedInjections<R>(
  reportingLeaks report: @MainActor ([LeakedInstance]) -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var built: [World.BuiltInstance] = []
  defer {
    report(
      built.filter { $0.object != nil }.map { LeakedInstance(injection: $0.injection, firstResolvedAt: $0.location) })
  }
  return try await run(watchingInto: &built, operation)
}

/// Runs `operation` in a fresh world that watches what it builds.
///
/// Leaves the watch list in `built`. The world is released when this function returns, unless a task holds it.
@MainActor
private func run<R>(
  watchingInto built: inout [World.BuiltInstance], _ operation: () async throws -> R
) async rethrows
  -> R
{
  let world = World(parent: .current, watchingForLeaks: true)
  defer { built = world.built }
  return try await world.run(operation)
}
