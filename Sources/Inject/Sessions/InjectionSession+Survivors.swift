extension InjectionSession {
  /// An instance of an ended generation of a session that is still alive, and who holds it.
  ///
  /// ```swift
  /// for survivor in userSession.survivors(roots: [screen]) {
  ///   report(survivor.message)
  /// }
  /// ```
  public struct Survivor: Sendable, Hashable, CustomStringConvertible {
    /// The survivor's injection, as in `Injection<AccountStore> (Account/AccountStore.swift:12)`.
    public let injection: String
    /// The `@Instance` edges that hold the survivor, from the first holder to the survivor, as
    /// ``InjectionGraph/Problem/path`` lists them; empty when no walked path reaches it.
    public let path: [InjectionGraph.Edge]
    /// What survived, since when, and what holds it, with the types and locations.
    public let message: String

    /// ``message``.
    public var description: String { message }
  }

  /// The instances of the session's generations ended in the calling task's world that are still
  /// alive, once each, with the path that holds each.
  ///
  /// Each is found by a walk of the world's graph (``InjectionGraph/capture(roots:followingReferences:)``)
  /// from the instances the world keeps and `roots`, through `@Instance` properties and
  /// `@SendableInstance` ones, an actor's too: the message names the holders from the nearest
  /// outwards, "AccountStore (.session(signed-in user), published at Account/AccountStore.swift:12)
  /// is still alive after the session ended at App/SignOut.swift:20: held by SettingsModel.account
  /// (Settings/SettingsModel.swift:8), held by Injection<SettingsModel> (.singleton, published at
  /// Settings/SettingsModel.swift:3)", or says
  /// that it is "held outside any `@Instance`" when no walked path reaches it: a closure, a task,
  /// a global, or a property that is not an `@Instance`. Only objects are watched: a session
  /// instance of a value type has no identity to outlive its session.
  ///
  /// - Parameter roots: Objects or values to walk from besides the world's stored instances, such
  ///   as the app's root model; see ``InjectionGraph/capture(roots:followingReferences:)``.
  /// - Returns: The survivors, oldest generation first, each in the order its slot let it go.
  @MainActor
  public func survivors(roots: [Any] = []) -> [Survivor] {
    let ended = World.withSessions(of: World.current) { $0.ended }.filter { $0.session === self }
    return survivors(of: ended, roots: roots).map(\.survivor)
  }

  /// The survivors of `generations`, ended in the calling task's world, with what the telemetry
  /// names of each.
  @MainActor
  private func survivors(
    of generations: [SessionGeneration], roots: [Any]
  ) -> [(survivor: Survivor, owner: SessionGeneration.Owner, endedAt: CodeLocation, held: String)] {
    var seen: Set<ObjectIdentifier> = []
    let survivors = generations.flatMap { generation in
      let endedAt = generation.endedAt ?? declaredAt
      return generation.survivors.compactMap { survivor in
        seen.insert(survivor.identifier).inserted ? (survivor, endedAt) : nil
      }
    }
    guard !survivors.isEmpty else { return [] }
    // The survivors are held weakly while the graph is walked, and matched by identifier: one
    // still alive after the walk was alive throughout, so its identifier named it alone.
    let paths = GraphWalk.run(roots: roots).holdingPaths(of: survivors.map(\.0.identifier))
    return zip(survivors, paths).compactMap { survivor, path in
      let (instance, endedAt) = survivor
      guard instance.isAlive else { return nil }
      let owner = instance.owner
      let what =
        "\(typeName(instance.type)) (.\(owner.strategy), published at \(owner.location)) is still alive "
        + "after the session ended at \(endedAt)"
      let held =
        path.map { $0.holders.map { "held by \($0)" }.joined(separator: ", ") }
        ?? "held outside any `@Instance` (a closure, a task, a global, or a property that is not an `@Instance`)"
      let survivor = Survivor(injection: owner.label, path: path?.path ?? [], message: "\(what): \(held)")
      return (survivor, owner, endedAt, held)
    }
  }

  /// Reports the survivors of `generation`, just ended in the calling task's world, once the
  /// main actor's current work is done (the screens that showed them are gone by then): to the
  /// installed telemetry, or, with none, as debug warnings.
  ///
  /// Not in a test world, where `expectSessionEnds` is the check, nor in a release build with no
  /// telemetry. It never changes what ``survivors(roots:)`` returns.
  @MainActor
  func checkSurvivors(of generation: SessionGeneration, in world: World?) {
    guard world?.isTest != true, Telemetry.isActive || DebugWarnings.areShown else { return }
    // The task inherits the world, and runs after the work the main actor has now.
    Task { @MainActor in
      for (_, owner, endedAt, held) in survivors(of: [generation], roots: []) {
        Telemetry.record(
          .survivedSession(endedAt: endedAt, heldBy: held),
          injection: owner.injectionType, publishedAt: owner.location, at: endedAt)
      }
    }
  }
}
