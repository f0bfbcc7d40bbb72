import Inject
public import ProfileKit

/// The model of the screen that shows who is signed in.
@MainActor
public final class AccountModel {
  @Instance(accountStoreInjection) public var store

  public init() {}

  /// Signs `user` in: the session's store keeps them.
  public func signIn(_ user: User) {
    store.signIn(user)
  }
}

/// The screen that shows who is signed in.
@MainActor
public struct AccountView {
  public let model: AccountModel

  public init(model: AccountModel) {
    self.model = model
  }

  public var body: String {
    model.store.user.map { "Signed in as \($0.name)." } ?? "Nobody is signed in."
  }
}
