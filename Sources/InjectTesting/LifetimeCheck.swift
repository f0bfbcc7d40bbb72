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
/// not issues. `.isolatedInjections(checkingGraph: true)` runs the same check after every test,
/// and records only the problems that the test's own checks did not: so a test of such a suite
/// expects a problem by checking inside `withKnownIssue`:
///
/// ```swift
/// withKnownIssue("the account store keeps the sign-in flow for the app's life") {
///   expectNoLifetimeProblems(roots: [screen])
/// }
/// ```
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
  recordLifetimeProblems(roots: roots, followingReferences: followingReferences, at: sourceLocation)
}

/// Records a test issue at `sourceLocation` for each lifetime bug in the current world's graph,
/// except, if `skippingRecorded`, those the test already recorded; returns whether there is none.
@MainActor
func recordLifetimeProblems(
  roots: [Any] = [], followingReferences: Bool = false, at sourceLocation: SourceLocation,
  skippingRecorded: Bool = false
) -> Bool {
  let errors = InjectionGraph.capture(roots: roots, followingReferences: followingReferences).errors
  let recorded = RecordedLifetimeProblems.current
  for problem in errors {
    let isNew = recorded?.messages.insert(problem.message).inserted ?? true
    if isNew || !skippingRecorded {
      Issue.record(Comment(rawValue: problem.message), sourceLocation: sourceLocation)
    }
  }
  return errors.isEmpty
}

/// The lifetime problems recorded in a test whose trait checks the graph, by message: the
/// trait's check after the test records only those that the test's own checks did not, so
/// that one problem is one issue, and one that the test expects (`withKnownIssue`) is not
/// recorded again after the test, where nothing can expect it.
@MainActor
final class RecordedLifetimeProblems {
  /// The current test's, while its trait checks the graph.
  @TaskLocal static var current: RecordedLifetimeProblems?

  var messages: Set<String> = []

  nonisolated init() {}
}
