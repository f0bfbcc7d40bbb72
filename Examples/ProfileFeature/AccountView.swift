import Inject
public import ProfileKit

/// The model of the screen that shows who is signed in.
@MainActor
public final class AccountModel {
  /// The signed-in user's store: the session's, until sign-out.
  @Instance(accountStoreInjection) public var store

  /// A model that resolves the store on its first read.
  public init() {}

  /// Signs `user` in: the session's store keeps them.
  public func signIn(_ user: User) {
    store.signIn(user)
  }
}

/// The screen that shows who is signed in.
@MainActor
public struct AccountView {
  /// The screen's model.
  public let model: AccountModel

  /// A screen that shows `model`.
  public init(model: AccountModel) {
    self.model = model
  }

  /// What the screen shows: who is signed in.
  public var body: String {
    model.store.user.map { "Signed in as \($0.name)." } ?? "Nobody is signed in."
  }
}
