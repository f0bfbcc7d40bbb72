import Inject
import InjectTesting
import Testing

/// These tests run in parallel and override the same global injection differently; each must
/// see only its own override, and a test without one must see the published instance.
@Suite @MainActor struct OverrideTraitTests {
  @Test(.overriding(greeting, with: Greeting("mock A")))
  func testWithInstanceOverrideSeesOnlyItsOwn() async throws {
    try await expectReads(of: greeting, toBe: "mock A")
  }

  @Test(.overriding(greeting, with: Greeting("mock B"), strategy: .onDemand))
  func testWithOnDemandOverrideSeesOnlyItsOwn() async throws {
    try await expectReads(of: greeting, toBe: "mock B")
    #expect(Reader(greeting).greeting !== Reader(greeting).greeting)
  }

  @Test(.overriding(greeting, with: { Greeting("decorated \($0.text)") }))
  func testWithDecoratingOverrideSeesOnlyItsOwn() async throws {
    try await expectReads(of: greeting, toBe: "decorated published")
  }

  @Test(.overriding(greeting, with: otherGreeting))
  func testWithInjectionOverrideSeesOnlyItsOwn() async throws {
    try await expectReads(of: greeting, toBe: "other")
  }

  @Test func testWithoutTheTraitSeesThePublishedInstance() async throws {
    try await expectReads(of: greeting, toBe: "published")
  }

  @Test(.overriding(greeting, with: Greeting("outer")), .overriding(greeting, with: { Greeting("inner(\($0.text))") }))
  func traitsApplyInOrder() {
    #expect(Reader(greeting).greeting.text == "inner(outer)")
  }

  @Suite(.overriding(greeting, with: Greeting("suite")))
  @MainActor struct SuiteWithTrait {
    @Test func firstTestSeesTheSuiteOverride() async throws {
      try await expectReads(of: greeting, toBe: "suite")
    }

    @Test func secondTestSeesTheSuiteOverride() {
      #expect(Reader(greeting).greeting.text == "suite")
    }

    @Test(.overriding(greeting, with: Greeting("test")))
    func testTraitWinsOverTheSuiteTrait() {
      #expect(Reader(greeting).greeting.text == "test")
    }
  }
}

/// Reads `injection` from new consumers across suspension points, while the other tests run.
@MainActor
private func expectReads(of injection: Injection<Greeting>, toBe text: String) async throws {
  for _ in 0..<5 {
    #expect(Reader(injection).greeting.text == text)
    try await Task.sleep(for: .milliseconds(2))
  }
}

final class Greeting: Sendable {
  let text: String
  init(_ text: String) { self.text = text }
}

private let greeting = Injection<Greeting>(strategy: .shared, instance: Greeting("published"))
private let otherGreeting = Injection<Greeting>(strategy: .singleton, instance: Greeting("other"))

private final class Reader {
  @Instance var greeting: Greeting
  init(_ injection: Injection<Greeting>) { _greeting = Instance(injection) }
}
