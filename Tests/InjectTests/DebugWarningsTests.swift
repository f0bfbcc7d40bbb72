import Inject
import TestSupport
import Testing

/// Misuse is visible by default: each misuse prints a warning in debug builds.
///
/// With no telemetry installed, the warning names the injection and both locations, on standard
/// error (on Apple platforms, `os.Logger` shows it instead). Release builds print nothing; an
/// installed telemetry receives the events instead. Each test runs in a child process, which has
/// no telemetry installed, and reads what the child printed; its body creates its own injection.
@Suite struct DebugWarningsTests {
  @Test(.timeLimit(.minutes(4))) func anOverridePushedAfterTheFirstResolutionIsAStaleOverride() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "Services/Numbers.swift", line: 1)
          _ = Consumer(injection, fileID: "App/Screen.swift", line: 8).service
          injection.override(with: 2, fileID: "App/Setup.swift", line: 30)
        }
      })
    #expect(
      result.warnings
        == expectedWarnings(
          "Inject warning: Injection<Int> (Services/Numbers.swift:1): override pushed at App/Setup.swift:30 after the "
            + "injection was first resolved at App/Screen.swift:8; consumers that resolved before keep their "
            + "instance. To fix this, override before the first consumer reads the injection (at the start of the "
            + "target), or scope the override with withOverride or a testing trait.",
          globalOverrideInTest(at: 30, publishedAt: 1)))
  }

  /// A sendable injection resolved on its fast path, with no lock of its own once nothing is left
  /// to note: a consumer of an `.onDemand` one first resolved on that path is noted (not a later
  /// one, which takes no lock), so an override pushed after is stale; so is one pushed after a
  /// `.singleton`'s first build, and after a rollback to the published layer, which consumers
  /// resolved from before.
  @Test(.timeLimit(.minutes(4))) func aSendableInjectionsFastPathNotesItsFirstConsumer() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        let onDemand = SendableInjection<Int>(
          strategy: .onDemand, instance: 1, fileID: "Services/Numbers.swift", line: 3)
        let singleton = SendableInjection<Int>(
          strategy: .singleton, instance: 1, fileID: "Services/Numbers.swift", line: 4)
        await Task.detached {
          _ = onDemand.resolve(fileID: "App/Screen.swift", line: 14)
          _ = onDemand.resolve(fileID: "App/Screen.swift", line: 15)
          onDemand.override(with: 2, fileID: "App/Setup.swift", line: 34)
          _ = singleton.resolve(fileID: "App/Screen.swift", line: 16)
          _ = singleton.resolve(fileID: "App/Screen.swift", line: 17)
          singleton.override(with: 2, fileID: "App/Setup.swift", line: 35)
          singleton.rollbackOverride()
          _ = singleton.resolve(fileID: "App/Screen.swift", line: 18)
          singleton.override(with: 3, fileID: "App/Setup.swift", line: 36)
        }.value
        // The warnings reach the main actor in order, before this.
        await MainActor.run {}
      })
    let onDemand = "SendableInjection<Int> (Services/Numbers.swift:3)"
    let singleton = "SendableInjection<Int> (Services/Numbers.swift:4)"
    #expect(
      result.warnings
        == expectedWarnings(
          staleOverride(of: onDemand, at: 34, firstResolvedAt: 14), globalOverrideInTest(of: onDemand, at: 34),
          staleOverride(of: singleton, at: 35, firstResolvedAt: 16), globalOverrideInTest(of: singleton, at: 35),
          staleOverride(of: singleton, at: 36, firstResolvedAt: 16), globalOverrideInTest(of: singleton, at: 36)))
  }

  /// Only consumers of the global world make a global override stale: a scope's consumers
  /// resolve in their own world, which a later global push does not reach.
  @Test(.timeLimit(.minutes(4))) func resolutionsInsideAScopeDoNotMakeALaterGlobalOverrideStale() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "Services/Numbers.swift", line: 6)
          withIsolatedInjections { _ = Consumer(injection, fileID: "App/ScreenTests.swift", line: 3).service }
          injection.override(with: 2, fileID: "App/Setup.swift", line: 32)
          _ = Consumer(injection, fileID: "App/Screen.swift", line: 11).service
          injection.override(with: 3, fileID: "App/Setup.swift", line: 33)
        }
      })
    #expect(
      result.warnings
        == expectedWarnings(
          globalOverrideInTest(at: 32, publishedAt: 6),
          "Inject warning: Injection<Int> (Services/Numbers.swift:6): override pushed at App/Setup.swift:33 after the "
            + "injection was first resolved at App/Screen.swift:11; consumers that resolved before keep their "
            + "instance. To fix this, override before the first consumer reads the injection (at the start of the "
            + "target), or scope the override with withOverride or a testing trait.",
          globalOverrideInTest(at: 33, publishedAt: 6)))
  }

  /// A family's global override makes the checks that every global override makes, both kinds.
  ///
  /// One pushed after a member with no override of its own was first resolved is stale, and one
  /// pushed in a test process outside any test world is reported. A member whose own override
  /// is on top is not shadowed by its family's.
  @Test(.timeLimit(.minutes(4))) func aFamilysGlobalOverrideIsCheckedAsAnInjectionsIs() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let stores = InjectionFamily<Int, Int>(strategy: .singleton, fileID: "Services/Stores.swift", line: 1) { $0 }
          _ = stores[1].resolve(fileID: "App/Screen.swift", line: 12)
          stores.override(with: { $0 + 10 }, fileID: "App/Setup.swift", line: 40)
          let caches = SendableInjectionFamily<Int, Int>(strategy: .singleton, fileID: "Services/Caches.swift", line: 2)
          {
            $0
          }
          _ = caches[1].resolve(fileID: "App/Screen.swift", line: 13)
          caches.override(with: { $0 + 10 }, fileID: "App/Setup.swift", line: 41)
          let owned = SendableInjectionFamily<Int, Int>(strategy: .singleton, fileID: "Services/Owned.swift", line: 3) {
            $0
          }
          owned[1].override(with: 5, fileID: "App/Setup.swift", line: 42)
          _ = owned[1].resolve(fileID: "App/Screen.swift", line: 14)
          owned.override(with: { $0 + 10 }, fileID: "App/Setup.swift", line: 43)
        }
      })
    #expect(
      result.warnings
        == expectedWarnings(
          staleOverride(of: "InjectionFamily<Int, Int> (Services/Stores.swift:1)", at: 40, firstResolvedAt: 12),
          globalOverrideInTest(of: "InjectionFamily<Int, Int> (Services/Stores.swift:1)", at: 40),
          staleOverride(of: "SendableInjectionFamily<Int, Int> (Services/Caches.swift:2)", at: 41, firstResolvedAt: 13),
          globalOverrideInTest(of: "SendableInjectionFamily<Int, Int> (Services/Caches.swift:2)", at: 41),
          globalOverrideInTest(of: "SendableInjection<Int>[1] (Services/Owned.swift:3)", at: 42),
          globalOverrideInTest(of: "SendableInjectionFamily<Int, Int> (Services/Owned.swift:3)", at: 43)))
  }

  /// A member's override is not stale once its family's override it was resolved from is gone.
  ///
  /// Its consumers resolved from that family override only, rolled back since: nothing resolved
  /// from what is left. For both kinds.
  @Test(.timeLimit(.minutes(4))) func aFamilysRollbackForgetsWhatItsMembersConsumersResolvedFromIt() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let stores = InjectionFamily<Int, Int>(strategy: .singleton, fileID: "Services/Stores.swift", line: 4) { $0 }
          stores.override(with: { $0 + 10 }, fileID: "App/Setup.swift", line: 50)
          _ = stores[1].resolve(fileID: "App/Screen.swift", line: 15)
          stores.rollbackOverride()
          stores[1].override(with: 2, fileID: "App/Setup.swift", line: 51)
          let caches = SendableInjectionFamily<Int, Int>(strategy: .singleton, fileID: "Services/Caches.swift", line: 5)
          {
            $0
          }
          caches.override(with: { $0 + 10 }, fileID: "App/Setup.swift", line: 52)
          _ = caches[1].resolve(fileID: "App/Screen.swift", line: 16)
          caches.rollbackOverride()
          caches[1].override(with: 2, fileID: "App/Setup.swift", line: 53)
        }
      })
    #expect(
      result.warnings
        == expectedWarnings(
          globalOverrideInTest(of: "InjectionFamily<Int, Int> (Services/Stores.swift:4)", at: 50),
          globalOverrideInTest(of: "Injection<Int>[1] (Services/Stores.swift:4)", at: 51),
          globalOverrideInTest(of: "SendableInjectionFamily<Int, Int> (Services/Caches.swift:5)", at: 52),
          globalOverrideInTest(of: "SendableInjection<Int>[1] (Services/Caches.swift:5)", at: 53)))
  }

  @Test(.timeLimit(.minutes(4))) func aRollbackWithNothingPushedIsReported() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "Services/Numbers.swift", line: 2)
          injection.rollbackOverride(fileID: "App/Teardown.swift", line: 40)
        }
      })
    #expect(
      result.warnings
        == expectedWarnings(
          "Inject warning: Injection<Int> (Services/Numbers.swift:2): rollback at App/Teardown.swift:40 with no "
            + "override to roll back. To fix this, roll back only what override(with:) pushed."))
  }

  @Test(.timeLimit(.minutes(4))) func aSharedValueThatCannotBeHeldWeaklyIsReported() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let injection = Injection<Int>(strategy: .shared, instance: 1, fileID: "Services/Numbers.swift", line: 3)
          _ = Consumer(injection, fileID: "App/Screen.swift", line: 9).service
        }
      })
    #expect(
      result.warnings
        == expectedWarnings(
          "Inject warning: Injection<Int> (Services/Numbers.swift:3): the published layer kept a value strongly "
            + "under .shared (it cannot be held weakly), for App/Screen.swift:9. To fix this, publish the injection "
            + "with .singleton, or make the type a class."))
  }

  /// Correct use in a test: set-up and tear-down in the test's own world.
  @Test(.timeLimit(.minutes(4))) func correctUseWarnsAboutNothing() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "Services/Numbers.swift", line: 4)
          withIsolatedInjections {
            injection.override(with: 2)
            _ = Consumer(injection).service
            injection.rollbackOverride()
          }
        }
      })
    #expect(result.warnings.isEmpty)
  }

  @Test(.timeLimit(.minutes(4))) func aTestThatMisusesOnPurposeSilencesTheWarningsOfItsOwnTaskOnly() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "Services/Numbers.swift", line: 6)
          withDebugWarningsSilenced { injection.rollbackOverride(fileID: "App/Teardown.swift", line: 43) }
          injection.rollbackOverride(fileID: "App/Teardown.swift", line: 44)
        }
      })
    #expect(
      result.warnings
        == expectedWarnings(
          "Inject warning: Injection<Int> (Services/Numbers.swift:6): rollback at App/Teardown.swift:44 with no "
            + "override to roll back. To fix this, roll back only what override(with:) pushed."))
  }

  @Test(.timeLimit(.minutes(4))) func anInstalledTelemetryReceivesTheMisusesInsteadOfTheWarnings() async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          installTelemetry(PrintingMisuses())
          let injection = Injection<Int>(strategy: .shared, instance: 1, fileID: "Services/Numbers.swift", line: 5)
          _ = Consumer(injection, fileID: "App/Screen.swift", line: 10).service
          injection.override(with: 2, fileID: "App/Setup.swift", line: 31)
          injection.rollbackOverride(fileID: "App/Teardown.swift", line: 41)
          injection.rollbackOverride(fileID: "App/Teardown.swift", line: 42)
        }
      })
    let recorded: [String] = [
      "telemetry: Injection<Int> (Services/Numbers.swift:5): the published layer kept a value strongly under "
        + ".shared (it cannot be held weakly), for App/Screen.swift:10",
      "telemetry: Injection<Int> (Services/Numbers.swift:5): override pushed at App/Setup.swift:31 after the "
        + "injection was first resolved at App/Screen.swift:10; consumers that resolved before keep their instance",
      "telemetry: Injection<Int> (Services/Numbers.swift:5): rollback at App/Teardown.swift:42 with no override "
        + "to roll back",
    ]
    #expect(result.warnings.isEmpty)
    #expect(result.standardOutputLines == recorded)
  }
}

/// The warning of a global override pushed in a test process, outside any test world, at
/// `App/Setup.swift:line`, of the injection published at `Services/Numbers.swift:publishedAt`.
private func globalOverrideInTest(at line: Int, publishedAt: Int) -> String {
  globalOverrideInTest(of: "Injection<Int> (Services/Numbers.swift:\(publishedAt))", at: line)
}

/// The warning of a global override of `injection` (its label) pushed in a test process, outside
/// any test world, at `App/Setup.swift:line`.
private func globalOverrideInTest(of injection: String, at line: Int) -> String {
  "Inject warning: \(injection): override pushed on the global stack at "
    + "App/Setup.swift:\(line) in a test process, outside any test world: it reaches every test running at the same "
    + "time, until it is rolled back. To fix this, override in the test with the .overriding(_:with:) trait or "
    + "withOverride, or run the test in a test world (.isolatedInjections), where override(with:) stays in the test."
}

/// The warning of a global override of `injection` (its label) pushed at `App/Setup.swift:line`
/// after a consumer at `App/Screen.swift:firstResolvedAt` resolved from a layer it shadows.
private func staleOverride(of injection: String, at line: Int, firstResolvedAt: Int) -> String {
  "Inject warning: \(injection): override pushed at App/Setup.swift:\(line) after the injection was first resolved "
    + "at App/Screen.swift:\(firstResolvedAt); consumers that resolved before keep their instance. To fix this, "
    + "override before the first consumer reads the injection (at the start of the target), or scope the override "
    + "with withOverride or a testing trait."
}

/// The warnings that a misuse prints on standard error with no telemetry installed: in debug
/// builds, on platforms without `os.Logger`; none in release builds.
private func expectedWarnings(_ warnings: String...) -> [String] {
  #if DEBUG && !canImport(OSLog)
  warnings
  #else
  []
  #endif
}

extension ExitTest.Result {
  /// The lines of Inject's warnings on the child process's standard error, without anything
  /// else there (a sanitizer's report, say).
  fileprivate var warnings: [String] {
    standardErrorText.split(separator: "\n").map(String.init).filter { $0.contains("Inject warning") }
  }

  /// The lines the child process wrote to its standard output.
  fileprivate var standardOutputLines: [String] {
    String(decoding: standardOutputContent, as: UTF8.self).split(separator: "\n").map(String.init)
  }
}

/// A telemetry that prints the misuses it receives to standard output.
private struct PrintingMisuses: InjectionTelemetry {
  func record(_ event: InjectionEvent) {
    switch event.kind {
    case .staleOverride, .nothingToRollBack, .keptStrongly: print("telemetry: \(event)")
    default: break
    }
  }
}
