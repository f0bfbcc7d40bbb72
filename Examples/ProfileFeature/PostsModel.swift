import Inject
public import ProfileKit

/// A screen of one user's posts: its store is the user's, from the `postStores` family.
@MainActor
public final class PostsModel {
  @Instance private var store: PostStore

  /// A model for the posts of the user `userID`.
  ///
  /// - Parameter userID: The user whose posts the screen shows.
  public init(userID: User.ID) {
    _store = Instance(postStores[userID])
  }

  /// The user's posts, oldest first.
  public var posts: [String] { store.posts }

  /// Posts `text` as the user: every screen of the user shows it.
  ///
  /// - Parameter text: The post's text.
  public func post(_ text: String) {
    store.add(text)
  }
}
