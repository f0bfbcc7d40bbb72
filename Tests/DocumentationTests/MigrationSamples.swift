public import DocumentationFixtures
public import Inject
import Testing

// The 2.0 samples of MIGRATION.md and the migration article; the 1.x samples are in
// InjectLegacyTests/DocumentationSamples.swift.

/// The migration guide's parser, published as a singleton.
public let jsonParserInjection = Injection<any Parser>(strategy: .singleton, instance: JSONParser())

/// The migration guide's networking, published on demand.
public let networkingInjection = Injection<any Networking>(strategy: .onDemand, instance: HTTPNetworking())

/// What the migration guide's actor receives.
public let crossDependencyAInjection = Injection<CrossDependencyA>(strategy: .singleton, instance: CrossDependencyA())

final class BackendSDK {
  @Instance(networkingInjection) var network
  @Instance(jsonParserInjection) var parser

  @MainActor func fetch() { network.fetch() }
}

struct SomeView: View {
  @Instance(networkingInjection) var network
}

/// What the migration guide's actor consumes itself, published for any isolation.
public let sendableCrossDependencyAInjection = SendableInjection<CrossDependencyA>(
  strategy: .singleton, instance: CrossDependencyA())

actor SignIn {
  @SendableInstance(sendableCrossDependencyAInjection) var crossReference
}

actor Auth {
  let crossReferenceA: CrossDependencyA  // Sendable

  init(crossReferenceA: CrossDependencyA) { self.crossReferenceA = crossReferenceA }
}

@MainActor final class Session {
  @Instance(crossDependencyAInjection) var crossReference
  lazy var auth = Auth(crossReferenceA: crossReference)
}

@Suite @MainActor struct MigrationSamples {
  @Test func injectingBecomesAnAssignment() {
    let view = SomeView()
    view.network = MockNetworking()  // this consumer only; `view.$network.reset()` undoes it
    #expect(view.network is MockNetworking)
    view.$network.reset()
    #expect(view.network is HTTPNetworking)
  }

  @Test func backendSDKFetchesWithItsOwnNetworking() {
    let sdk = BackendSDK()
    sdk.fetch()
    #expect(sdk.network !== BackendSDK().network, "networking is .onDemand")
    #expect(sdk.parser === BackendSDK().parser, "parser is .singleton")
  }

  @Test func actorReceivesItsDependencyFromTheMainActor() {
    let session = Session()
    let auth = session.auth
    let received = auth.crossReferenceA
    #expect(received === session.crossReference)
  }
}
