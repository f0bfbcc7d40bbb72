import DocumentationFixtures
import Inject
import Testing

// The 1.x samples of MIGRATION.md and the migration article, unchanged, in the Swift 5 language
// mode that 1.x users had: they compile and run on the 2.0 engine. Each declaration is marked
// deprecated, as a 1.x user's would be to silence the deprecation warnings while migrating.

@available(*, deprecated)
extension DefaultValues {
  var networking: Networking { HTTPNetworking() }
  var parser: Parser { JSONParser() }
}

@available(*, deprecated)
final class BackendSDK {
  @Injected(\.networking) var network
  @Injected(\.parser, lifespan: .permanent, scope: .shared) var parser

  func fetch() { network.instance.fetch() }
}

@available(*, deprecated)
struct SomeView: View, Injectable {
  @Injected(\.networking) var network
}

@Suite @MainActor struct LegacyDocumentationSamples {
  @Test func backendSDKRunsAsIn1x() { scenarios.backendSDKRunsAsIn1x() }
  @Test func injectingReplacesForOneConsumer() { scenarios.injectingReplacesForOneConsumer() }

  /// The scenarios, through their protocol, which is not deprecated: calling them warns of nothing.
  private var scenarios: any LegacyDocumentationScenarios { LegacyDocumentation() }
}

/// The scenarios of ``LegacyDocumentationSamples``.
///
/// Declared without deprecation so that the tests above call them without a warning; `LegacyDocumentation`
/// implements each with the 1.x API, in a deprecated extension.
@MainActor protocol LegacyDocumentationScenarios {
  func backendSDKRunsAsIn1x()
  func injectingReplacesForOneConsumer()
}

struct LegacyDocumentation: LegacyDocumentationScenarios {}

@available(*, deprecated)
extension LegacyDocumentation {
  func backendSDKRunsAsIn1x() {
    let sdk = BackendSDK()
    sdk.fetch()
    #expect(sdk.network.instance !== BackendSDK().network.instance)
    #expect(sdk.parser.instance === BackendSDK().parser.instance)
  }

  func injectingReplacesForOneConsumer() {
    let view = SomeView().injecting(MockNetworking(), for: \.network)
    #expect(view.network.instance is MockNetworking)
    #expect(SomeView().network.instance is HTTPNetworking)
  }
}
