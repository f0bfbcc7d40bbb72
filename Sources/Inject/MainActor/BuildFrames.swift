/// The builds in progress on the main actor, as the main-actor door keeps them: a stack of
/// frames, one per build, innermost last, each with what its build resolved (``BuildRecord``).
///
/// While a build is in progress, every resolution on the main actor takes the general path
/// (``Resolution``), which notes here what it returns. The frames are made only when something
/// is noted: a build that resolves nothing pays two counts.
@MainActor
enum BuildFrames {
  /// Whether a build is in progress.
  ///
  /// Stored properties with constant initial values, so that reading or counting one costs a
  /// load or a store, with no check for lazy initialization.
  private(set) static var isRecording = false
  /// How many builds are in progress.
  private static var depth = 0
  /// The frames of the builds in progress, outermost first, made up to the innermost build that
  /// noted something: a build deeper than `frames` has noted nothing.
  private static var frames: [BuildRecord] = []

  /// Opens a frame for a build that begins.
  @inline(__always)
  static func begin() {
    depth += 1
    if depth == 1 {
      record(true)
    }
  }

  /// Closes the innermost frame; returns what it noted.
  @inline(__always)
  static func end() -> BuildRecord {
    depth -= 1
    if depth == 0 {
      record(false)
    }
    return frames.count > depth ? frames.removeLast() : BuildRecord()
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

  private static func record(_ recording: Bool) {
    isRecording = recording
    Resolution.update()
    // A sendable resolution inside a main-actor build notes itself here: the sendable fast path
    // is closed meanwhile, so that it takes the general path, which does.
    if recording {
      SendableFastPath.increment()
    } else {
      SendableFastPath.decrement()
    }
  }
}
