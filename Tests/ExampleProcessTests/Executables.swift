#if os(macOS) || os(Linux)
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the executable `product` that `swift test` built beside the tests, with `arguments` and
/// `environment` (added to this process's, without the variables the examples react to), and
/// returns what it printed on its standard output and error.
func run(
  _ product: String, arguments: [String] = [], environment: [String: String] = [:]
) throws -> (output: String, error: String) {
  let process = Process()
  process.executableURL = try builtExecutable(product)
  process.arguments = arguments
  var inherited = ProcessInfo.processInfo.environment
  inherited["MOCK_API"] = nil
  inherited["XCODE_RUNNING_FOR_PREVIEWS"] = nil
  // Launched as a user launches it, not as the test runner launches a test bundle.
  for variable in inherited.keys where variable.hasPrefix("XCTest") {
    inherited[variable] = nil
  }
  process.environment = inherited.merging(environment) { _, new in new }
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  // Bounded: an example that never exits is ended after two minutes, and the test fails on its
  // termination reason. A test's `.timeLimit` cannot end it: it records the failure, then waits
  // for the test's body, which waits here.
  let pid = process.processIdentifier
  let deadline = DispatchWorkItem { kill(pid, SIGKILL) }
  DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: deadline)
  // Read before waiting, so that a full pipe cannot block the app (the examples print less than
  // a pipe holds, so reading one pipe after the other cannot block either).
  let printed = output.fileHandleForReading.readDataToEndOfFile()
  let warned = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  deadline.cancel()
  #expect(process.terminationReason == .exit)
  #expect(process.terminationStatus == 0)
  return (String(decoding: printed, as: UTF8.self), String(decoding: warned, as: UTF8.self))
}

/// The executable `product` that `swift test` built beside the tests.
///
/// SwiftPM puts executables in the build directory (`.build/debug`, or the configuration and
/// scratch path given), beside the test bundle: on Linux the bundle is the test executable
/// itself, `<build>/InjectPackageTests.xctest`, and the main bundle is `<build>`; on macOS the
/// bundle is a directory, `<build>/InjectPackageTests.xctest`, with its executable in
/// `Contents/MacOS`, and the main bundle is the tool that loaded it. So the app is in the
/// directory of the test bundle, of the running executable, or a few levels above.
private func builtExecutable(_ product: String) throws -> URL {
  let starts = [Bundle(for: BundleMarker.self).bundleURL, Bundle.main.bundleURL, Bundle.main.executableURL]
  for start in starts.compactMap(\.self) {
    var directory = start
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent(product)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
        FileManager.default.isExecutableFile(atPath: candidate.path)
      {
        return candidate
      }
      directory.deleteLastPathComponent()
    }
  }
  throw NotFound(product: product, searched: starts.compactMap(\.?.path))
}

/// A class of the test bundle, so that `Bundle(for:)` finds the bundle.
private final class BundleMarker {}

/// The built executable was not found where SwiftPM puts it.
private struct NotFound: Error, CustomStringConvertible {
  let product: String
  let searched: [String]

  var description: String {
    "\(product) was not found in or above \(searched.joined(separator: ", ")). Run the tests with "
      + "`swift test`, which builds the examples beside the test bundle."
  }
}
#endif
