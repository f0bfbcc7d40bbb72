import DocumentationFixtures
import Inject
import InjectTesting
import ProfileKit
import Testing

// The recipes of the Testing article, compiled and run: set-up and tear-down with overrides
// pushed in the test's world, and what a view struct re-created by its parent gets from an
// `.onDemand` injection.

// MARK: Set-up and tear-down

/// The 1.x habit, safe in parallel under a trait: the suite's initializer runs in each test's
/// world, so its override is that test's.
@Suite(.isolatedInjections)
@MainActor struct SearchTests {
  init() {
    apiClientInjection.override(with: MockAPIClient(users: [.sample, .demo]))
  }

  @Test func findsTheDemoUser() async throws {
    #expect(try await UserSearchModel().apiClient.fetchUser(id: User.demo.id) == .demo)
  }

  @Test func rollsBackToTheTestValue() async throws {
    apiClientInjection.rollbackOverride()
    // The test value knows only `User.sample`.
    await #expect(throws: APIError.self) { try await UserSearchModel().apiClient.fetchUser(id: User.demo.id) }
  }
}

/// The same set-up through a helper, in a strict suite: the helper passes its caller on, so
/// the push is the initializer's, set-up, and a test that never resolves the client reports
/// nothing.
@Suite(.isolatedInjections(strict: true))
@MainActor struct SearchSetUpTests {
  init() {
    installMocks()
  }

  private func installMocks(function: StaticString = #function) {
    apiClientInjection.override(with: MockAPIClient(users: [.sample]), function: function)
  }

  @Test func findsTheSampleUser() async throws {
    #expect(try await UserSearchModel().apiClient.fetchUser(id: User.sample.id) == .sample)
  }

  @Test func aTestThatNeverResolvesTheClient() {
    #expect(dateFormattingInjection.overrideCount == 0)
  }
}

// MARK: A view struct and an .onDemand injection

/// Formats dates; a new one per consumer.
final class DateFormatting {}

let dateFormattingInjection = Injection<DateFormatting>(strategy: .onDemand, instance: DateFormatting())

/// A row that its parent re-creates on every update of its own body.
struct DateLabel: View {
  @Instance(dateFormattingInjection) var formatting
}

@Suite @MainActor struct ViewStructSamples {
  @Test func aViewReCreatedByItsParentGetsANewOnDemandInstanceEachTime() {
    let first = DateLabel()
    let copy = first
    #expect(copy.formatting === first.formatting, "copies of one view share what it resolved")
    let recreated = DateLabel()  // the parent's body ran again
    #expect(recreated.formatting !== first.formatting, "a new struct, a new storage, a new instance")
  }

  @Test func aSharedInjectionGivesEveryRecreatedViewTheSameInstanceWhileOneHoldsIt() {
    let sharedFormatting = Injection<DateFormatting>(strategy: .shared, instance: DateFormatting())
    let holder = SharedDateLabel(sharedFormatting)
    #expect(SharedDateLabel(sharedFormatting).formatting === holder.formatting)
  }
}

/// The same row over a `.shared` injection.
private struct SharedDateLabel: View {
  @Instance var formatting: DateFormatting
  init(_ injection: Injection<DateFormatting>) { _formatting = Instance(injection) }
}
