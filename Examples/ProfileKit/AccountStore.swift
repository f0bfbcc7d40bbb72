public import Inject

/// The signed-in user's session: what belongs to the user lives until sign-out.
public let userSession = InjectionSession("signed-in user")

/// What the app keeps of the signed-in user: built at the first read after sign-in, released at
/// sign-out (`userSession.end()`).
@MainActor
public final class AccountStore {
  /// The signed-in user, once signed in.
  public private(set) var user: User?

  /// A store with nobody signed in.
  public init() {}

  /// Keeps `user` as the signed-in user.
  public func signIn(_ user: User) {
    self.user = user
  }
}

/// The signed-in user's account store: one per session.
public let accountStoreInjection = Injection<AccountStore>(strategy: .session(userSession), instance: AccountStore())
