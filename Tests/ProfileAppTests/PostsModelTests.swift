import Inject
import InjectTesting
import ProfileFeature
import ProfileKit
import Testing

@Suite(.isolatedInjections)
@MainActor struct PostsModelTests {
  @Test func theScreensOfOneUserShareItsPosts() {
    let first = PostsModel(userID: 42)
    let second = PostsModel(userID: 42)
    first.post("Hello.")
    #expect(second.posts == ["Hello."], "the test value starts every user with no post")
    #expect(PostsModel(userID: 7).posts.isEmpty, "another user, another store")
  }

  @Test(.overriding(postStores, with: { id in PostStore(userID: id, posts: ["Imported."]) }))
  func everyUsersPostsReplaced() {
    #expect(PostsModel(userID: 42).posts == ["Imported."])
    #expect(PostsModel(userID: 7).posts == ["Imported."])
  }

  @Test func oneUsersPostsReplaced() {
    postStores[42].override(with: PostStore(userID: 42, posts: ["Pinned."]))
    #expect(PostsModel(userID: 42).posts == ["Pinned."])
    #expect(PostsModel(userID: 7).posts.isEmpty)
  }

  @Test func aUsersStoreIsReleasedWithItsLastScreen() {
    weak var store: PostStore?
    do {
      let screen = PostsModel(userID: 5)
      screen.post("Gone soon.")
      store = postStores[5].resolve()
      #expect(store?.posts == ["Gone soon."])
    }
    #expect(store == nil)
    #expect(PostsModel(userID: 5).posts.isEmpty)
  }
}
