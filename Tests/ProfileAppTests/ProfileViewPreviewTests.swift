import Inject
import ProfileFeature
import ProfileKit
import Testing

// A preview renders its view after its closure has returned, and `@Instance` resolves on the
// first read, after the scope has ended: a view built inside a scoped override remembers the
// scope's configuration, so it resolves the scope's mock then, on the example's screen and
// without SwiftUI.
@Suite @MainActor struct ProfileViewPreviewTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aViewBuiltInAScopeResolvesTheScopesClientOnceTheScopeHasEnded() async {
    let screen = apiClientInjection.withOverride(MockAPIClient(users: [.sample])) {
      ProfileView(model: ProfileModel(userID: User.sample.id))
    }
    // Not a test world: the avatar client, which the scope does not override, is the live one, as
    // a consumer outside test worlds gets in a test process (TestProcessWarningTests checks that
    // warning).
    await withDebugWarningsSilenced {
      await screen.model.load()  // the scope has ended: the model resolves the scope's mock
    }
    #expect(screen.body == "Grace Hopper: Wrote the first compiler.")
  }
}
