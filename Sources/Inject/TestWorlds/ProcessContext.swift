#if canImport(Foundation)
import Foundation
#endif

/// What the process was launched with, read once.
enum ProcessContext {
  /// The launch arguments.
  static let arguments: [String] = CommandLine.arguments

  /// Whether this is an Xcode preview process, as Apple's tooling marks it.
  static let isPreview = environment("XCODE_RUNNING_FOR_PREVIEWS") == "1"

  /// Whether this process runs tests, XCTest's or Swift Testing's, as their runners launch it.
  static let isTesting = runsTests(arguments: arguments, environment: environment)

  /// Whether a process launched with `arguments` and the environment that `environment` reads
  /// runs tests.
  ///
  /// Xcode's test runner, its `xctest` agent or a test host app, sets one of XCTest's variables
  /// (to something). `swift test` sets none: its native build system runs a `.xctest` bundle (on
  /// Linux, an executable named so), or loads one into `xctest` or, for Swift Testing,
  /// `swiftpm-testing-helper` on macOS; Swift Build (`--build-system swiftbuild`) runs, on Linux,
  /// one executable per test target named `<Target>-test-runner` (`.exe` on Windows). Only the
  /// executable's own name counts, so a plain program given such an argument is not taken for a
  /// test.
  ///
  /// A child process that inherits XCTest's variables (an app launched from a test with the
  /// test's environment) is taken for one: launch it without them; so is a plain program named
  /// `…-test-runner`, which Swift Build's runners cannot be told from. A runner named otherwise (one
  /// a build of your own links with a `main` that calls Swift Testing) is not: nothing tells it.
  static func runsTests(arguments: [String], environment: (String) -> String?) -> Bool {
    let variables = [
      "XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestBundleInjectPath", "XCTestSessionIdentifier",
    ]
    if variables.contains(where: { environment($0).map { !$0.isEmpty } ?? false }) {
      return true
    }
    guard var executable = arguments.first?.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last else {
      return false
    }
    if executable.hasSuffix(".exe") {
      executable = executable.dropLast(4)
    }
    return executable == "xctest" || executable == "swiftpm-testing-helper" || executable.hasSuffix(".xctest")
      || executable.hasSuffix("-test-runner")
  }

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

/// Whether the environment variable `name` is set to anything but empty, `0` or `false`, as
/// Inject reads its own; for the tests' own switches.
package func isSetInEnvironment(_ name: String) -> Bool {
  ProcessContext.isSet(name)
}

/// Whether this process runs tests; for tests of the detection.
package var isTestProcess: Bool { ProcessContext.isTesting }

/// Whether a process launched with `arguments` and `environment` runs tests; for tests of the
/// detection.
package func runsTests(arguments: [String], environment: [String: String]) -> Bool {
  ProcessContext.runsTests(arguments: arguments) { environment[$0] }
}
