/// A world you can carry: the overrides and test settings in force where it was taken, to run
/// code with them anywhere else.
///
/// Consumers made in a scope or a test remember its world on their own. Take the world where
/// code runs outside it and resolves with `resolve()`, or makes consumers before it reads them:
/// a callback registered in a test, a `Task.detached`, a queue.
///
/// ```swift
/// @Test(.overriding(httpClientInjection, with: MockHTTPClient()))
/// func refreshesInTheBackground() async {
///   let world = InjectionWorld.current
///   await Task.detached {
///     await world.run { await StatusRefresher().refresh() }  // the test's mock
///   }.value
/// }
/// ```
///
/// It keeps what a consumer keeps: the world's configuration, never the instances it stores. While
/// the world lives (its scope, its test, or a task running in it), ``run(_:)`` resolves with its
/// instances; after it ended, in a world made again from its configuration, which finds the
/// instances of the ended world that are still alive elsewhere.
public struct InjectionWorld: Sendable {
  /// The world's configuration; `nil` for the global world.
  let configuration: WorldConfiguration?

  /// The current task's world: its innermost scope's or test's, or the global world outside
  /// every scope.
  public static var current: InjectionWorld {
    InjectionWorld(configuration: WorldConfiguration.rememberedByNewConsumer())
  }

  /// Whether this is the global world: taken outside every scope and test.
  public var isGlobal: Bool { configuration == nil }

  /// Runs `operation` in this world, from any isolation: what it and the tasks it creates
  /// resolve, and the consumers they make, resolve with this world's configuration.
  ///
  /// ```swift
  /// let world = InjectionWorld.current
  /// DispatchQueue.global().async {
  ///   world.run { syncStatusInjection.resolve().refresh() }
  /// }
  /// ```
  ///
  /// - Parameter operation: The code to run in this world.
  /// - Returns: What `operation` returns.
  public func run<R>(_ operation: () throws -> R) rethrows -> R {
    guard let configuration else { return try World.outsideEveryWorld(operation) }
    return try World(configuration).enter(operation)
  }

  /// Runs the asynchronous `operation` in this world, in the caller's isolation; see ``run(_:)``.
  ///
  /// - Parameters:
  ///   - isolation: Where `operation` runs: the caller's actor, by default.
  ///   - operation: The code to run in this world.
  /// - Returns: What `operation` returns.
  public func run<R>(
    isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
  ) async rethrows -> R {
    guard let configuration else {
      return try await World.outsideEveryWorld(isolation: isolation, operation)
    }
    return try await World(configuration).enter(isolation: isolation, operation)
  }
}
