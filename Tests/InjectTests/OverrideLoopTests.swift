import Inject
import TestSupport
import Testing

/// Overrides that would form a loop stop the process with a message naming the injections.
///
/// Loops are programmer errors: stopping beats hanging or overflowing the stack. Each test runs
/// in a child process.
@Suite struct OverrideLoopTests {
  @Test(.timeLimit(.minutes(4))) func overridingAnInjectionWithItselfIsRefused() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "App/Numbers.swift", line: 3)
          injection.override(with: injection)
        }
      })
    let message = result.standardErrorText
    #expect(
      message.contains(
        "Cannot override Injection<Int> (App/Numbers.swift:3) with Injection<Int> (App/Numbers.swift:3): "
          + "it would resolve from itself (Injection<Int> (App/Numbers.swift:3) → Injection<Int> (App/Numbers.swift:3))"
      ))
  }

  /// A global override applies to the global configuration, so its loop check looks there
  /// only: a scope that shadows the back edge does not hide the loop it closes.
  @Test(.timeLimit(.minutes(4))) func aGlobalLoopPushedInsideAScopeThatShadowsItIsRefused() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let first = Injection<Int>(strategy: .singleton, instance: 1, fileID: "App/Numbers.swift", line: 1)
          let second = Injection<Int>(strategy: .singleton, instance: 2, fileID: "App/Numbers.swift", line: 2)
          first.override(with: second)
          first.withOverride(3) {
            second.override(with: first)
          }
        }
      })
    #expect(
      result.standardErrorText.contains(
        "Cannot override Injection<Int> (App/Numbers.swift:2) with Injection<Int> (App/Numbers.swift:1): it would "
          + "resolve from itself"))
  }

  @Test(.timeLimit(.minutes(4))) func closingALoopOfTwoInjectionsIsRefused() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let first = Injection<Int>(strategy: .singleton, instance: 1, fileID: "App/Numbers.swift", line: 1)
          let second = Injection<Int>(strategy: .singleton, instance: 2, fileID: "App/Numbers.swift", line: 2)
          first.override(with: second)
          second.override(with: { $0 + 1 })
          second.override(with: first)
        }
      })
    let message = result.standardErrorText
    #expect(
      message.contains(
        "Cannot override Injection<Int> (App/Numbers.swift:2) with Injection<Int> (App/Numbers.swift:1): "
          + "it would resolve from itself (Injection<Int> (App/Numbers.swift:2) → Injection<Int> (App/Numbers.swift:1) "
          + "→ Injection<Int> (App/Numbers.swift:2))"
      ))
  }

  /// A global override closes no loop in the global configuration here, so it is pushed; the
  /// scope's override closes one in the scope's world, where resolution names the cycle.
  @Test(.timeLimit(.minutes(4))) func aLoopThroughAScopedOverrideIsNamedWhenTheScopeResolves() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
      performing: {
        ChildProcessBound.start()
        await MainActor.run {
          let first = Injection<Int>(strategy: .singleton, instance: 1, fileID: "App/Numbers.swift", line: 1)
          let second = Injection<Int>(strategy: .singleton, instance: 2, fileID: "App/Numbers.swift", line: 2)
          first.withOverride(second) {
            second.override(with: first)
            print("pushed")
            _ = Consumer(first).service
          }
        }
      })
    #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == "pushed\n")
    #expect(
      result.standardErrorText.contains(
        "Dependency cycle: Injection<Int> (App/Numbers.swift:1) → Injection<Int> (App/Numbers.swift:2) → "
          + "Injection<Int> (App/Numbers.swift:1)"))
  }
}
