import DocumentationFixtures
import Inject
import Testing

// The 1.x samples of MIGRATION.md and the migration article, unchanged: they compile, with
// deprecation warnings, and run on the 2.0 engine.

extension DefaultValues {
  var networking: Networking { HTTPNetworking() }
  var parser: Parser { JSONParser() }
}

final class BackendSDK {
  @Injected(\.networking) var network
  @Injected(\.parser, lifespan: .permanent, scope: .shared) var parser

  func fetch() { network.instance.fetch() }
}

struct SomeView: View, Injectable {
  @Injected(\.networking) var network
}

@Suite @MainActor struct LegacyDocumentationSamples {
  @Test func backendSDKRunsAsIn1x() {
    let sdk = BackendSDK()
    sdk.fetch()
    #expect(sdk.network.instance !== BackendSDK().network.instance)
    #expect(sdk.parser.instance === BackendSDK().parser.instance)
  }

  @Test func injectingReplacesForOneConsumer() {
    let view = SomeView().injecting(MockNetworking(), for: \.network)
    #expect(view.network.instance is MockNetworking)
    #expect(SomeView().network.instance is HTTPNetworking)
  }
}
