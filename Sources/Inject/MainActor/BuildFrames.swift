/// The builds in progress on the main actor, as the main-actor door keeps them: a stack of
/// frames, one per build, innermost last, each with what its build resolved (``BuildRecord``).
///
/// While a build is in progress, every resolution on the main actor takes the general path
/// (``Resolution``), which notes here what it returns. The frames are made only when something
/// is noted: a build that resolves nothing pays two counts.
@MainActor
enum BuildFrames {
  /// How many builds are in progress.
  ///
  /// A stored property with a constant initial value, so the compiler initializes it statically
  /// and reading it costs a load, with no check for lazy initialization; and
  /// `@exclusivity(unchecked)`, so that it costs no dynamic exclusivity check either. That is
  /// safe: it is isolated to the main actor, and every access is a whole load or store, or a
  /// change of the array, that runs no other code while it lasts, so no two accesses overlap.
  @exclusivity(unchecked)
  private static var depth = 0

  /// The frames of the builds in progress, outermost first, made up to the innermost build that
  /// noted something: a build deeper than `frames` has noted nothing.
  ///
  /// Stored as ``depth`` is, and as safely.
  @exclusivity(unchecked)
  private static var frames: [BuildRecord] = []

  /// Whether a build is in progress.
  static var isRecording: Bool { depth > 0 }

  /// Opens a frame for a build that begins.
  @inline(__always)
  static func begin() {
    depth += 1
    if depth == 1 {
      Resolution.noteBuilds(inProgress: true)
    }
  }

  /// Closes the innermost frame; returns what it noted, if anything.
  @inline(__always)
  static func end() -> BuildRecord? {
    depth -= 1
    let frame = frames.count > depth ? frames.removeLast() : nil
    if depth == 0 {
      Resolution.noteBuilds(inProgress: false)
    }
    return frame
  }

  /// Notes, in the innermost frame, that the build resolved `dependency`, an instance that
  /// belongs to `generations`.
  static func note(_ dependency: BuildDependency, _ generations: [SessionGeneration]) {
    guard depth > 0 else { return }
    while frames.count < depth {
      frames.append(BuildRecord())
    }
    frames[depth - 1].note(dependency, generations)
  }
}
