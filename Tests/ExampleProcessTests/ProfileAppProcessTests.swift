#if os(macOS) || os(Linux)
import Foundation
import Testing

/// The example app, launched as a real process, picks its API client from how it was launched,
/// with no code of its own: the live client by default, the mock client for the launch argument
/// `-mock-api` or the environment variable `MOCK_API`, the preview client in an Xcode preview
/// process.
@Suite struct ProfileAppProcessTests {
  @Test func withoutArgumentsTheAppShowsTheLiveUser() throws {
    #expect(try launch() == screens(showing: "Ada Lovelace: Wrote the first program."))
  }

  @Test func theLaunchArgumentGivesTheMockClient() throws {
    #expect(try launch(arguments: ["-mock-api"]) == screens(showing: "Mock User: Served by the mock client."))
  }

  @Test func theEnvironmentVariableGivesTheMockClient() throws {
    #expect(try launch(environment: ["MOCK_API": "1"]) == screens(showing: "Mock User: Served by the mock client."))
  }

  @Test func theEnvironmentVariableSetToZeroChangesNothing() throws {
    #expect(try launch(environment: ["MOCK_API": "0"]) == screens(showing: "Ada Lovelace: Wrote the first program."))
  }

  @Test func aPreviewProcessGetsThePreviewClient() throws {
    #expect(
      try launch(environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"])
        == screens(showing: "Preview User: Served by the preview client."))
  }

  @Test func theLaunchOverrideWinsInAPreviewProcess() throws {
    #expect(
      try launch(arguments: ["-mock-api"], environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"])
        == screens(showing: "Mock User: Served by the mock client."))
  }
}

/// What the app prints when the client knows user 1 as `user` (the second screen reads the
/// repository's cache) and does not know user 7.
private func screens(showing user: String) -> String {
  """
  Loading the profile of user 1…
  \(user)
  \(user)
  Could not load the profile: no user with id 7.

  """
}

/// Runs the built `ProfileApp` with `arguments` and `environment` (added to this process's,
/// without the variables the app reacts to), and returns what it printed.
private func launch(arguments: [String] = [], environment: [String: String] = [:]) throws -> String {
  let process = Process()
  process.executableURL = try profileApp()
  process.arguments = arguments
  var inherited = ProcessInfo.processInfo.environment
  inherited["MOCK_API"] = nil
  inherited["XCODE_RUNNING_FOR_PREVIEWS"] = nil
  process.environment = inherited.merging(environment) { _, new in new }
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  // Read before waiting, so that a full pipe cannot block the app.
  let printed = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  #expect(process.terminationReason == .exit)
  #expect(process.terminationStatus == 0)
  return String(decoding: printed, as: UTF8.self)
}

/// The `ProfileApp` executable that `swift test` built beside the tests.
///
/// SwiftPM puts executables in the build directory (`.build/debug`, or the configuration and
/// scratch path given), beside the test bundle: on Linux the bundle is the test executable
/// itself, `<build>/InjectPackageTests.xctest`, and the main bundle is `<build>`; on macOS the
/// bundle is a directory, `<build>/InjectPackageTests.xctest`, with its executable in
/// `Contents/MacOS`, and the main bundle is the tool that loaded it. So the app is in the
/// directory of the test bundle, of the running executable, or a few levels above.
private func profileApp() throws -> URL {
  let starts = [Bundle(for: BundleMarker.self).bundleURL, Bundle.main.bundleURL, Bundle.main.executableURL]
  for start in starts.compactMap(\.self) {
    var directory = start
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent("ProfileApp")
      if FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate
      }
      directory.deleteLastPathComponent()
    }
  }
  throw NotFound(searched: starts.compactMap(\.?.path))
}

/// A class of the test bundle, so that `Bundle(for:)` finds the bundle.
private final class BundleMarker {}

/// The built app was not found where SwiftPM puts it.
private struct NotFound: Error, CustomStringConvertible {
  let searched: [String]

  var description: String {
    "ProfileApp was not found in a directory above \(searched.joined(separator: ", ")). Run the tests "
      + "with `swift test`, which builds the app beside the test bundle."
  }
}
#endif
