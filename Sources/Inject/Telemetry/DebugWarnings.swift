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

  /// Whether the current task silences the warnings: for tests that misuse on purpose.
  @TaskLocal static var areSilenced = false

  #if canImport(OSLog)
  private static let logger = Logger(subsystem: "Inject", category: "misuse")
  #endif

  /// Shows `event` with its remedy, unless the current task silences warnings.
  static func show(_ event: InjectionEvent) {
    guard !areSilenced else { return }
    let text = "Inject warning: \(event). \(event.kind.remedy)"
    #if canImport(OSLog)
    logger.warning("\(text, privacy: .public)")
    #elseif canImport(Foundation)
    FileHandle.standardError.write(Data((text + "\n").utf8))
    #else
    print(text)
    #endif
  }
}

/// Runs `operation` with the debug builds' misuse warnings silenced in the current task and the
/// tasks it creates: for tests that misuse injections on purpose, thousands of times.
package func withDebugWarningsSilenced<R>(_ operation: () throws -> R) rethrows -> R {
  try DebugWarnings.$areSilenced.withValue(true, operation: operation)
}

extension InjectionEvent.Kind {
  /// Whether the event is a misuse, which debug builds warn about.
  var isMisuse: Bool {
    switch self {
    case .staleOverride, .nothingToRollBack, .keptStrongly: true
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
    default: ""
    }
  }
}
