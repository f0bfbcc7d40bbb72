public import Inject
public import Testing

/// Ends `session` in the test's world and records a test issue for every instance of the ended
/// generations that is still alive, naming what holds it.
///
/// ```swift
/// @Suite(.isolatedInjections) @MainActor struct SignOutTests {
///   @Test func signingOutReleasesTheAccountOnceTheScreenIsGone() {
///     // …
///     #expect(expectSessionEnds(userSession))
///     #expect(store == nil)
/// ```
///
/// It checks at once, with the survivor report of `InjectionSession.survivors(roots:)`: each
/// issue is a survivor's message, "AccountStore (.session(signed-in user), published at …) is
/// still alive after the session ended at …: held by …". Run it in a test world (the
/// `.isolatedInjections` or `.overriding` trait, or `withIsolatedInjections`), so that the
/// session ends in the test's world and no other test's.
///
/// - Parameters:
///   - session: The session to end.
///   - roots: Objects or values to walk from besides the world's stored instances, such as the
///     test's models, so that the report names who holds a survivor.
///   - sourceLocation: Where the issues are recorded.
///   - fileID: Where the session ends, as the survivor messages name it: the call.
///   - line: Where the session ends, as the survivor messages name it: the call.
/// - Returns: Whether no instance survived.
@MainActor
@discardableResult
public func expectSessionEnds(
  _ session: InjectionSession, roots: [Any] = [], sourceLocation: SourceLocation = #_sourceLocation,
  fileID: StaticString = #fileID, line: UInt = #line
) -> Bool {
  session.end(fileID: fileID, line: line)
  let survivors = session.survivors(roots: roots)
  for survivor in survivors {
    Issue.record(Comment(rawValue: survivor.message), sourceLocation: sourceLocation)
  }
  return survivors.isEmpty
}
