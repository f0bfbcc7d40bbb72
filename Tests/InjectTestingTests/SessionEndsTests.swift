import Inject
import InjectTesting
import Testing

/// The one-line check of a sign-out in a test: an issue for each survivor, none for a clean one.
@Suite @MainActor struct SessionEndsTests {
  @Test(.isolatedInjections) func aSurvivorIsRecordedAsAnIssueAndACleanEndPasses() {
    let session = InjectionSession("signed-in user")
    let store = Injection<Account>(strategy: .session(session), instance: Account())
    var screen: Screen? = Screen(store)
    _ = screen?.account
    var passed = true
    withKnownIssue {
      passed = expectSessionEnds(session, roots: [screen as Any])
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix("Account (.session(signed-in user), published at ") == true
        && issue.comments.first?.rawValue.hasSuffix(
          "held by Screen.account (InjectTestingTests/SessionEndsTests.swift:36), held by the root Screen") == true
    }
    #expect(!passed)
    screen = nil
    weak var next: Account?
    do { next = Screen(store).account }
    #expect(expectSessionEnds(session))
    #expect(next == nil)
  }
}

private final class Account {}

@MainActor
private final class Screen {
  @Instance var account: Account

  init(_ injection: Injection<Account>) {
    _account = Instance(injection)
  }
}
