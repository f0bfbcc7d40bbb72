import Inject
import InjectTesting
import ProfileFeature
import ProfileKit
import Testing

/// Sign-out ends the user's session: the account store goes, unless something outlives it.
@Suite(.isolatedInjections) @MainActor struct SignOutTests {
  @Test func signingOutReleasesTheAccountOnceTheScreenIsGone() {
    weak var store: AccountStore?
    do {
      let screen = AccountView(model: AccountModel())
      screen.model.signIn(.sample)
      #expect(screen.body == "Signed in as Grace Hopper.")
      store = screen.model.store
    }
    #expect(expectSessionEnds(userSession))
    #expect(store == nil)
    #expect(AccountView(model: AccountModel()).body == "Nobody is signed in.")
  }

  @Test func aSingletonThatKeepsTheAccountStoreIsReportedAtSignOut() {
    let keeper = Injection<AccountModel>(strategy: .singleton, instance: AccountModel())
    let keeperLine = #line - 1
    let model = KeeperScreen(keeper).model
    model.signIn(.sample)
    var passed = true
    withKnownIssue {
      passed = expectSessionEnds(userSession)
    } matching: { issue in
      issue.comments.first?.rawValue.hasSuffix(
        "held by AccountModel.store (ProfileFeature/AccountView.swift:8), held by Injection<AccountModel> "
          + "(.singleton, published at ProfileAppTests/SignOutTests.swift:\(keeperLine))") == true
    }
    #expect(!passed)
    #expect(model.store.user == .sample, "the old store lives on with the singleton that keeps it")
  }
}

/// A screen whose model a `.singleton` keeps: the mistake the survivor report catches.
@MainActor
private final class KeeperScreen {
  @Instance var model: AccountModel

  init(_ injection: Injection<AccountModel>) {
    _model = Instance(injection)
  }
}
