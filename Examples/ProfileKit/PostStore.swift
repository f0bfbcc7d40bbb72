public import Inject

/// The posts of one user, shared by every screen that shows that user while one is open.
@MainActor
public final class PostStore {
  /// The user whose posts these are.
  public let userID: User.ID
  /// The posts, oldest first.
  public private(set) var posts: [String]

  /// A store of `posts` by the user `userID`.
  ///
  /// - Parameters:
  ///   - userID: The user whose posts these are.
  ///   - posts: The posts, oldest first.
  public init(userID: User.ID, posts: [String]) {
    self.userID = userID
    self.posts = posts
  }

  /// Adds a post, which every screen of the user sees.
  ///
  /// - Parameter post: The post's text.
  public func add(_ post: String) {
    posts.append(post)
  }
}

/// One post store per user: `.shared`, so that the screens of one user share its store, and it
/// is released when the last of them closes; tests start every user with no post.
public let postStores = InjectionFamily<User.ID, PostStore>(
  strategy: .shared,
  instance: { id in PostStore(userID: id, posts: ["Hello from user \(id)."]) },
  test: { id in PostStore(userID: id, posts: []) }
)
