extension InjectionSession {
  /// An instance of an ended generation of a session that is still alive, and who holds it.
  ///
  /// ```swift
  /// for survivor in userSession.survivors(roots: [appModel]) {
  ///   print(survivor.message)
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
  /// - Parameter roots: Objects or values to walk from besides the world's stored instances, such
  ///   as the app's root model; see ``InjectionGraph/capture(roots:followingReferences:)``.
  /// - Returns: The survivors, in the order they were built.
  @MainActor
  public func survivors(roots: [Any] = []) -> [Survivor] {
    SessionGenerations.ended(self, in: World.current).flatMap(\.survivors).map { _, instance in
      Survivor(
        injection: instance.injection, path: [],
        message: "\(instance.injection) is still alive after the session ended: held outside any `@Instance`")
    }
  }
}
