#if os(macOS) || os(Linux)
import Testing

/// The first example, launched as a real process, shows a misuse warning: it overrides an
/// injection that a screen has already resolved.
@Suite(.timeLimit(.minutes(4))) struct InjectExampleProcessTests {
  @Test func theLateOverrideIsWarnedAboutInDebugBuilds() throws {
    let (output, error) = try run("InjectExample")
    #expect(output.contains("global override, as a preview, demo or UI-test target does at its start"))
    let warnings = error.split(separator: "\n").filter { $0.contains("Inject warning") }
    #expect(!error.contains("in a test process"), "a plain executable is not a test process")
    #if DEBUG && !canImport(OSLog)
    // On Apple platforms, `os.Logger` shows the warning instead of standard error.
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.hasPrefix(
        "Inject warning: Injection<Service> (ServicePackage/Service.swift:36): override pushed at "
          + "InjectExample/main.swift:") == true)
    #expect(
      warnings.first?.contains("after the injection was first resolved at InjectExample/main.swift:8;") == true)
    #else
    #expect(warnings.isEmpty, "release builds print no warning")
    #endif
  }
}
#endif
