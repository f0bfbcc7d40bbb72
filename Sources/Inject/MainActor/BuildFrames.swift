/// The builds in progress on the main actor, as the main-actor door keeps them: a stack of
/// frames, one per build, innermost last, each with what its build resolved (``BuildRecord``).
///
/// While a build is in progress, every resolution on the main actor takes the general path
/// (``Resolution``), which notes here what it returns. The frames are made only when something
/// is noted: a build that resolves nothing pays two counts.
@MainActor
enum BuildFrames {
  /// How many builds are in progress, and the frames of those that noted something.
  ///
  /// In a cell, so that counting costs a load and a store: a `static var` costs a dynamic
  /// exclusivity check on each access.
  // NB: `nonisolated(unsafe)` only because a cell is not `Sendable`. It is safe: it is private,
  // and only main-actor-isolated members of this type touch it.
  private nonisolated(unsafe) static let state = Cell.make(State())

  private struct State {
    /// How many builds are in progress.
    var depth = 0
    /// The frames of the builds in progress, outermost first, made up to the innermost build
    /// that noted something: a build deeper than `frames` has noted nothing.
    var frames: [BuildRecord] = []
  }

  /// Whether a build is in progress.
  static var isRecording: Bool { state.access { $0.depth > 0 } }

  /// Opens a frame for a build that begins.
  @inline(__always)
  static func begin() {
    let depth = state.access { state in
      state.depth += 1
      return state.depth
    }
    if depth == 1 {
      Resolution.noteBuilds(inProgress: true)
    }
  }

  /// Closes the innermost frame; returns what it noted, if anything.
  @inline(__always)
  static func end() -> BuildRecord? {
    let (depth, frame) = state.access { state -> (Int, BuildRecord?) in
      state.depth -= 1
      return (state.depth, state.frames.count > state.depth ? state.frames.removeLast() : nil)
    }
    if depth == 0 {
      Resolution.noteBuilds(inProgress: false)
    }
    return frame
  }

  /// Notes, in the innermost frame, that the build resolved `dependency`, an instance that
  /// belongs to `generations`.
  static func note(_ dependency: BuildDependency, _ generations: [SessionGeneration]) {
    state.access { state in
      guard state.depth > 0 else { return }
      while state.frames.count < state.depth {
        state.frames.append(BuildRecord())
      }
      state.frames[state.depth - 1].note(dependency, generations)
    }
  }
}
