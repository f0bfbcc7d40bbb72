import Inject
import ProfileFeature
import ProfileKit
import Testing

// The sample of `withIsolatedInjections(operation:)`'s documentation: a test with no trait that
// resolves in a test world of its own for part of its work.
@Suite struct IsolatedWorldSamples {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test @MainActor func loadsThroughTheTestClient() async {
    let model = ProfileModel(userID: User.sample.id)
    await withIsolatedInjections {
      await model.load()
    }
    #expect(model.state == .loaded(.sample))
  }
}
