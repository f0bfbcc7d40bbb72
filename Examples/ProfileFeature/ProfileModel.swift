import Inject
public import ProfileKit

#if canImport(Observation)
public import Observation
#endif

/// The profile screen's state and what it does: loads a user through the injected repository.
///
/// `@MainActor`, so that it may read `@Instance` properties and a view's `body` may read it;
/// `@Observable` where Observation is available, so that a SwiftUI view redraws when `state`
/// changes.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
#if canImport(Observation)
@Observable
#endif
@MainActor
public final class ProfileModel {
  /// What the screen shows.
  public enum State: Equatable, Sendable {
    /// The profile is on its way.
    case loading
    /// The profile arrived.
    case loaded(User)
    /// The profile could not be loaded; the message says why.
    case failed(String)
  }

  /// The user whose profile the screen shows.
  public let userID: Int

  /// What the screen shows now.
  public private(set) var state = State.loading

  // Observation must not track the property wrapper: it would declare `_repository` a second
  // time (see the Troubleshooting article).
  #if canImport(Observation)
  @ObservationIgnored @Instance(userRepositoryInjection) private var repository
  #else
  @Instance(userRepositoryInjection) private var repository
  #endif

  /// The user's avatar, once loaded.
  public private(set) var avatar: String?

  // The avatar loader is an actor, published for any isolation: a main-actor consumer reads it
  // with `@SendableInstance`.
  #if canImport(Observation)
  @ObservationIgnored @SendableInstance(avatarLoaderInjection) private var avatarLoader
  #else
  @SendableInstance(avatarLoaderInjection) private var avatarLoader
  #endif

  /// A model for the profile of the user `userID`; it loads nothing until ``load()``.
  ///
  /// - Parameter userID: The user whose profile the screen shows.
  public init(userID: Int) {
    self.userID = userID
  }

  /// Loads the profile, from the repository's cache if it is there, then the user's avatar,
  /// off the main actor.
  public func load() async {
    let user: User
    if let cached = repository.cachedUser(id: userID) {
      user = cached
    } else {
      do {
        user = try await repository.user(id: userID)
      } catch {
        state = .failed("\(error)")
        return
      }
    }
    state = .loaded(user)
    avatar = await avatarLoader.avatar(of: user)
  }
}
