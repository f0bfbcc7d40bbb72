public import Inject

/// Loads avatars off the main actor, and keeps each it loaded: one for the life of the app, or
/// of each test.
///
/// An actor that consumes the avatar client itself, through `@SendableInstance`: the property
/// resolves on the actor, in the world of the task that first reads it, with no hop to the main
/// actor.
public actor AvatarLoader {
  @SendableInstance(avatarClientInjection) private var client
  private var avatars: [Int: String] = [:]

  /// A loader with nothing loaded yet.
  public init() {}

  /// The avatar of `user`: the one loaded before, or one the client fetches now.
  ///
  /// - Parameter user: The user whose avatar to load.
  /// - Returns: The avatar, or `nil` if the client could not fetch it.
  public func avatar(of user: User) async -> String? {
    if let avatar = avatars[user.id] {
      return avatar
    }
    let avatar = try? await client.avatar(of: user)
    avatars[user.id] = avatar
    return avatar
  }

  /// How many avatars the loader keeps.
  public var loadedCount: Int { avatars.count }
}

/// The avatar loader, shared by every screen that shows an avatar.
public let avatarLoaderInjection = SendableInjection<AvatarLoader>(strategy: .singleton, instance: AvatarLoader())
