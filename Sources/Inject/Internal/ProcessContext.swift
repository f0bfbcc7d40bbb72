#if canImport(Foundation)
import Foundation
#endif

/// What the process was launched with, read once.
enum ProcessContext {
  /// The launch arguments.
  static let arguments: [String] = CommandLine.arguments

  /// Whether this is an Xcode preview process, as Apple's tooling marks it.
  static let isPreview = environment("XCODE_RUNNING_FOR_PREVIEWS") == "1"

  /// Whether `variable` is set to anything but empty, `0` or `false`.
  static func isSet(_ variable: String) -> Bool {
    guard let value = environment(variable) else { return false }
    return !["", "0", "false"].contains(value.lowercased())
  }

  /// The value of the environment variable `name`, if it is set.
  static func environment(_ name: String) -> String? {
    #if canImport(Foundation)
    ProcessInfo.processInfo.environment[name]
    #else
    nil
    #endif
  }
}
