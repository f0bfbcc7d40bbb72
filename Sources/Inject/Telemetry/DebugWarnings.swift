#if canImport(OSLog)
import OSLog
#elseif canImport(Foundation)
import Foundation
#endif

/// Misuse warnings, shown in debug builds while no telemetry is installed.
///
/// Each names the injection and both locations: `os.Logger` at the warning level on Apple
/// platforms, standard error elsewhere. Release builds show nothing.
enum DebugWarnings {
  /// Whether warnings are shown: in debug builds of Inject.
  #if DEBUG
  static let areShown = true
  #else
  static let areShown = false
  #endif

  /// Where the current task's warnings go instead of the log, if anywhere: for tests that
  /// misuse on purpose, and check or silence what that shows.
  @TaskLocal static var capture: DebugWarningCapture?

  #if canImport(OSLog)
  private static let logger = Logger(subsystem: "Inject", category: "misuse")
  #endif

  /// Shows `event` with its remedy, or hands it to the current task's capture; from any thread.
  static func show(_ event: InjectionEvent) {
    let text = "Inject warning: \(event). \(event.kind.remedy)"
    if let capture {
      capture.append(text)
      return
    }
    #if canImport(OSLog)
    logger.warning("\(text, privacy: .public)")
    #elseif canImport(Foundation)
    FileHandle.standardError.write(Data((text + "\n").utf8))
    #else
    print(text)
    #endif
  }
}

/// The debug warnings that a task captured instead of showing them, from any thread.
package final class DebugWarningCapture: Sendable {
  private let shown = Locked<[String]>([])

  /// The warnings, in the order they were shown.
  package var warnings: [String] { shown.withLock { $0 } }

  init() {}

  fileprivate func append(_ warning: String) {
    shown.withLock { $0.append(warning) }
  }
}

/// Runs `operation` with the debug builds' misuse warnings captured in the current task and the
/// tasks it creates, instead of shown; returns what `operation` returns and the warnings.
@MainActor
package func withDebugWarningsCaptured<R>(_ operation: () throws -> R) rethrows -> (R, warnings: [String]) {
  let capture = DebugWarningCapture()
  let result = try DebugWarnings.$capture.withValue(capture, operation: operation)
  return (result, capture.warnings)
}

/// Runs the asynchronous `operation` with the debug builds' misuse warnings captured; see
/// `withDebugWarningsCaptured(_:)`.
@MainActor
package func withDebugWarningsCaptured<R>(
  _ operation: () async throws -> R
) async rethrows -> (R, warnings: [String]) {
  let capture = DebugWarningCapture()
  let result = try await DebugWarnings.$capture.withValue(capture, operation: operation)
  return (result, capture.warnings)
}

/// Runs `operation` with the debug builds' misuse warnings silenced in the current task and the
/// tasks it creates: for tests that misuse injections on purpose, thousands of times.
package func withDebugWarningsSilenced<R>(_ operation: () throws -> R) rethrows -> R {
  try DebugWarnings.$capture.withValue(DebugWarningCapture(), operation: operation)
}

/// Runs the asynchronous `operation` with the debug builds' misuse warnings silenced; see
/// `withDebugWarningsSilenced(_:)`.
nonisolated(nonsending) package func withDebugWarningsSilenced<R>(
  _ operation: () async throws -> R
) async rethrows -> R {
  try await DebugWarnings.$capture.withValue(DebugWarningCapture(), operation: operation)
}

extension InjectionEvent.Kind {
  /// Whether the event is a misuse, which debug builds warn about.
  var isMisuse: Bool {
    switch self {
    case .staleOverride, .nothingToRollBack, .keptStrongly, .globalOverrideInTest, .liveValueInTest,
      .liveValueAfterTest, .nothingToEnd,
      .survivedSession, .waitingForBuild:
      true
    default: false
    }
  }

  /// How to fix a misuse.
  var remedy: String {
    switch self {
    case .staleOverride:
      "To fix this, override before the first consumer reads the injection (at the start of the "
        + "target), or scope the override with withOverride or a testing trait."
    case .nothingToRollBack: "To fix this, roll back only what override(with:) pushed."
    case .keptStrongly:
      "To fix this, publish the injection with .singleton, or make the type a class."
    case .globalOverrideInTest:
      "To fix this, override in the test with the .overriding(_:with:) trait or withOverride, or run "
        + "the test in a test world (.isolatedInjections), where override(with:) stays in the test."
    case .liveValueInTest:
      "To fix this, run the test in a test world (the .isolatedInjections or .overriding trait, or "
        + "withIsolatedInjections), and resolve in tasks that inherit it (Task { }, not Task.detached)."
    case .liveValueAfterTest:
      "To fix this, publish a test value (Injection(strategy:instance:test:)) or override it in the test, "
        + "and read the consumer before the test ends (await the callback or task that reads it)."
    case .nothingToEnd:
      "To fix this, end the session in the task (and world) that resolved its injections, once per "
        + "sign-out."
    case .survivedSession:
      "To fix this, release the holder with the session (give it a .session or shorter lifetime), or "
        + "let it drop the instance when the session ends."
    case .waitingForBuild:
      "To fix this, do not wait in a factory for work that resolves an injection (a thread, a queue or a "
        + "task that the factory blocks on): resolve what that work needs before the build, or make the "
        + "factory cheap and do the work later, in an async method."
    default: ""
    }
  }
}
