import Inject
import ProfileFeature
import ProfileKit
import Testing

// The previews pitfall of the Troubleshooting article, on the example's screen and without
// SwiftUI: a preview renders its view after its closure has returned, and `@Instance` resolves
// on the first read, so a view built inside a scoped override resolves after the scope has
// ended. It gets what the injection publishes: in a preview process its preview value, here
// (not a test world, not a preview process) the live client, which does not know the mock's
// user.
@Suite @MainActor struct ProfileViewPreviewTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func aViewBuiltInAScopeResolvesThePublishedClientOnceTheScopeHasEnded() async {
    let screen = apiClientInjection.withOverride(MockAPIClient(users: [.sample])) {
      ProfileView(model: ProfileModel(userID: User.sample.id))
    }
    // Reaching the live client from a test is what the test-process warning is for; this test
    // shows the pitfall on purpose (TestProcessWarningTests checks the warning).
    await withDebugWarningsSilenced {
      await screen.model.load()  // the scope has ended: the model resolves the published client
    }
    #expect(screen.body == "Could not load the profile: no user with id 42.")
  }
}
