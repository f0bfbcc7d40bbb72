import Inject
import TestSupport
import Testing

/// A test process knows it is one, and warns of the two mistakes that make a test pass alone
/// and break others, or reach a live service: a global override outside any test world, and a
/// live value built in the global world by an injection that publishes a test value.
///
/// Each test captures the warnings of its own task and publishes its own injections: the
/// warnings are shown once per call site and once per injection.
@Suite @MainActor struct TestProcessWarningTests {
  @Test func swiftTestIsATestProcessAndAPlainExecutableIsNot() {
    #expect(isTestProcess)
    #expect(!runsTests(arguments: ["/usr/local/bin/ProfileApp", "-mock-api"], environment: ["HOME": "/root"]))
    #expect(runsTests(arguments: ["/repo/.build/debug/InjectPackageTests.xctest"], environment: [:]))
    #expect(
      runsTests(arguments: ["/usr/bin/xctest", "/repo/.build/debug/InjectPackageTests.xctest"], environment: [:]))
    #expect(
      runsTests(arguments: ["/usr/bin/swiftpm-testing-helper", "--testing-library", "swift-testing"], environment: [:]))
    #expect(!runsTests(arguments: [], environment: [:]))
    #expect(runsTests(arguments: ["/Applications/App"], environment: ["XCTestConfigurationFilePath": "/tmp/x"]))
    #expect(!runsTests(arguments: ["/usr/local/bin/Plain", "Foo.xctest", "--testing-library"], environment: [:]))
    #expect(!runsTests(arguments: ["/usr/local/bin/Plain"], environment: ["XCTestBundlePath": ""]))
  }

  @Test func everyTestHostIsATestProcess() {
    // Swift Build (`swift test --build-system swiftbuild`; Xcode 26's engine) on Linux and Windows:
    // one runner per test target, with no argument at all for XCTest's tests.
    #expect(runsTests(arguments: ["/repo/.build/out/Products/Debug-linux/InjectTests-test-runner"], environment: [:]))
    #expect(
      runsTests(
        arguments: [
          "/repo/.build/out/Products/Debug-linux/InjectTests-test-runner", "--build-system", "swiftbuild",
          "--testing-library", "swift-testing",
        ],
        environment: [:]))
    #expect(
      runsTests(
        arguments: [#"C:\repo\.build\out\Products\Debug-windows\InjectTests-test-runner.exe"#], environment: [:]))
    #expect(runsTests(arguments: [#"C:\repo\.build\debug\InjectPackageTests.xctest"#], environment: [:]))
    // Xcode's `xctest` agent and a test host app: XCTest's variables.
    #expect(
      runsTests(
        arguments: ["/Applications/Xcode.app/Contents/Developer/usr/bin/xctest"],
        environment: ["XCTestSessionIdentifier": "0C6F"]))
    #expect(
      runsTests(
        arguments: [
          "/Users/me/Library/Developer/CoreSimulator/Devices/1/data/Containers/Bundle/Application/2/App.app/App"
        ],
        environment: ["XCTestBundleInjectPath": "/tmp/AppTests.xctest"]))
    // Not a test: a plain program given a runner's name as an argument, or named like one in part.
    #expect(!runsTests(arguments: ["/usr/local/bin/Plain", "InjectTests-test-runner"], environment: [:]))
    #expect(!runsTests(arguments: ["/usr/local/bin/test-runner-setup"], environment: [:]))
    #expect(!runsTests(arguments: ["/usr/local/bin/xctest-report"], environment: [:]))
  }

  @Test func aGlobalOverrideOutsideAnyTestWorldWarnsOncePerCallSite() {
    let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "Services/Numbers.swift", line: 11)
    let ((), warnings) = withDebugWarningsCaptured {
      for value in 2...4 {
        injection.override(with: value, fileID: "Tests/GlobalSetup.swift", line: 5)
      }
      injection.override(with: 5, fileID: "Tests/GlobalSetup.swift", line: 6)
      injection.rollbackAllOverrides()
    }
    #expect(warnings == shownInDebugBuilds([globalOverrideWarning(line: 5), globalOverrideWarning(line: 6)]))
  }

  @Test func anOverrideInATestWorldWarnsOfNothing() {
    let injection = Injection<Int>(strategy: .singleton, instance: 1)
    let ((), warnings) = withDebugWarningsCaptured {
      withIsolatedInjections {
        injection.override(with: 2)
        #expect(Consumer(injection).service == 2)
        injection.rollbackOverride()
      }
    }
    #expect(warnings.isEmpty)
  }

  @Test(.timeLimit(.minutes(4)), arguments: [Strategy.onDemand, .singleton, .shared])
  func aLiveValueBuiltInTheGlobalWorldByAnInjectionWithATestValueWarnsOncePerInjection(strategy: Strategy) {
    let injection = Injection<any Service>(
      strategy: strategy, instance: ServiceImplementation("live"), test: ServiceImplementation("test"),
      fileID: "Services/Clients.swift", line: 3)
    let (names, warnings) = withDebugWarningsCaptured {
      let inTestWorld = withIsolatedInjections { Consumer(injection).service.name }
      let first = Consumer(injection, fileID: "App/Screen.swift", line: 12).service.name
      let second = Consumer(injection, fileID: "App/Screen.swift", line: 13).service.name
      return [inTestWorld, first, second]
    }
    let expected: String =
      "Inject warning: Injection<Service> (Services/Clients.swift:3): built its live instance for App/Screen.swift:12 "
      + "outside every test world of a test process, although it publishes a test value: the consumer resolved in "
      + "the global world or in a scope opened outside a test world (in a Task.detached, or in a test with neither "
      + ".isolatedInjections nor .overriding). To fix this, run the test in a test world (the .isolatedInjections or .overriding "
      + "trait, or withIsolatedInjections), and resolve in tasks that inherit it (Task { }, not Task.detached)."
    #expect(names == ["test", "live", "live"])
    #expect(warnings == shownInDebugBuilds([expected]))
  }

  @Test func aLiveValueBuiltInAScopeOpenedOutsideATestWorldWarnsToo() {
    let injection = Injection<Int>(
      strategy: .singleton, instance: 1, test: 2, fileID: "Services/Numbers.swift", line: 31)
    let (value, warnings) = withDebugWarningsCaptured {
      injection.withOverride({ $0 * 10 }) { Consumer(injection, fileID: "App/Scoped.swift", line: 2).service }
    }
    #expect(value == 10, "a plain scope resolves the live value beneath its decorator")
    #expect(warnings.count == expectedWarningCount(1))
    #expect(
      warnings.allSatisfy { $0.contains("built its live instance for App/Scoped.swift:2 outside every test world") })
  }

  @Test func anInjectionWithoutATestValueBuildsLiveInTheGlobalWorldWithNoWarning() {
    let (injection, _) = makeInjection(.onDemand)
    let (_, warnings) = withDebugWarningsCaptured { Consumer(injection).service }
    #expect(warnings.isEmpty)
  }

  /// A detached task leaves the test's world, and its task-locals: what it builds live is shown
  /// on standard error, here in a child process.
  @Test(.timeLimit(.minutes(4))) func aDetachedTaskInAStrictTestThatReachesTheLiveValueIsWarnedAbout() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run { _ = isTestProcess }
        let injection = Injection<Int>(
          strategy: .singleton, instance: 1, test: 2, fileID: "Services/Numbers.swift", line: 21)
        let values = await withIsolatedInjections {
          let inTest = await MainActor.run { Consumer(injection).service }
          let detached = await Task.detached { @MainActor in
            Consumer(injection, fileID: "App/Sync.swift", line: 4).service
          }
          .value
          return [inTest, detached]
        }
        precondition(values == [2, 1])
      })
    let warnings = result.standardErrorText.split(separator: "\n").filter { $0.contains("Inject warning") }
    #if DEBUG && !canImport(OSLog)
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.hasPrefix(
        "Inject warning: Injection<Int> (Services/Numbers.swift:21): built its live instance for App/Sync.swift:4 "
          + "outside every test world of a test process") == true)
    #else
    #expect(warnings.isEmpty)
    #endif
  }
}

/// The warning of a global override of `Services/Numbers.swift:11`'s injection pushed at
/// `Tests/GlobalSetup.swift:line`.
private func globalOverrideWarning(line: Int) -> String {
  "Inject warning: Injection<Int> (Services/Numbers.swift:11): override pushed on the global stack at "
    + "Tests/GlobalSetup.swift:\(line) in a test process, outside any test world: it reaches every test running at "
    + "the same time, until it is rolled back. To fix this, override in the test with the .overriding(_:with:) "
    + "trait or withOverride, or run the test in a test world (.isolatedInjections), where override(with:) stays "
    + "in the test."
}
