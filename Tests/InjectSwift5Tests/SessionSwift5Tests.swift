import Inject
import Testing

// Sessions in the Swift 5 language mode: a global session and its injection, a consumer that
// declares no isolation, and a sign-out that releases what the session kept.

let swift5Session = InjectionSession("signed-in user")
let swift5Account = Injection<Worker>(strategy: .session(swift5Session), instance: Worker(result: "account"))

final class AccountConsumer {
  @Instance(swift5Account) var account
}

@Suite struct SessionSwift5Tests {
  @Test @MainActor func signingOutReleasesTheSessionsInstanceAndTheNextReadBuildsANewOne() {
    // In a test world: the session ends in the test's world, and the check after `end()` stays
    // quiet there.
    withIsolatedInjections {
      weak var first: Worker?
      do { first = AccountConsumer().account }
      let kept = AccountConsumer()
      let held = kept.account
      swift5Session.end()
      #expect(first === held)
      #expect(AccountConsumer().account !== held)
      #expect(swift5Session.survivors().map(\.injection).count == 1)
      withExtendedLifetime(kept) {}
    }
  }
}
