import Inject
import InjectTesting
import ProfileKit
import Testing

// The samples of InjectionSession's documentation and the Sessions article: a screen that keeps
// the signed-in user's store after sign-out, and the report that names it.

/// A screen that shows the signed-in user's account.
@MainActor final class SignedInScreen {
  @Instance(ProfileKit.accountStoreInjection) var store
}

@Suite(.isolatedInjections) @MainActor struct SessionSamples {
  @Test func theSurvivorReportNamesTheScreenThatKeepsTheStore() {
    var reported: [String] = []
    func report(_ message: String) { reported.append(message) }
    let screen = SignedInScreen()
    screen.store.signIn(.sample)
    userSession.end()
    for survivor in userSession.survivors(roots: [screen]) {
      report(survivor.message)
    }
    #expect(reported.count == 1)
    #expect(
      reported.first?.hasSuffix(
        "held by SignedInScreen.store (DocumentationTests/SessionSamples.swift:11), held by the root SignedInScreen")
        == true)
  }
}
