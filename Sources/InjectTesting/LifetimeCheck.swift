import Inject
public import Testing

/// Records a test issue for each lifetime bug in the graph that the current test's world built:
/// a `.shared` instance held for the life of the world, or a reference cycle of `.shared`
/// instances.
///
/// Call it at the end of a test, in the test's world (the `.isolatedInjections` or
/// `.overriding` trait), with the objects that no injection built as roots: the screens and
/// view models the test created. From an app's root objects, one test checks the whole app's
/// graph:
///
/// ```swift
/// @Test(.isolatedInjections) @MainActor func theAppHasNoLifetimeBug() async {
///   let profile = ProfileView(model: ProfileModel(userID: User.sample.id))
///   await profile.model.load()
///   expectNoLifetimeProblems(roots: [profile.model])
/// }
/// ```
///
/// Each issue names the path, with the types, the properties and where they are declared, and
/// says how to fix it. Injections that a consumer declares but never resolved are information,
/// not issues. `.isolatedInjections(checkingGraph: true)` runs the same check after every test.
///
/// - Parameters:
///   - roots: Objects or values that no injection built and that hold `@Instance` properties.
///   - followingReferences: Whether to follow ordinary strong references from the roots and
///     the instances to reach more consumers; see `InjectionGraph.capture(roots:followingReferences:)`.
///   - sourceLocation: Where to record the issues; the caller's location by default.
/// - Returns: Whether the graph has no lifetime bug.
@MainActor
@discardableResult
public func expectNoLifetimeProblems(
  roots: [Any] = [], followingReferences: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
  let errors = InjectionGraph.capture(roots: roots, followingReferences: followingReferences).errors
  for problem in errors {
    Issue.record(Comment(rawValue: problem.message), sourceLocation: sourceLocation)
  }
  return errors.isEmpty
}
