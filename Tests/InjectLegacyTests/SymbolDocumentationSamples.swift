import DocumentationFixtures
import Inject
import Testing

// The samples of the `///` comments of the 1.x symbols, in the Swift 6 language mode: the
// consumers are main-actor classes, as the Swift 6 mode needs (see MIGRATION.md). Each
// declaration is marked deprecated, as a 1.x user's would be while migrating.

@available(*, deprecated)
extension DefaultValues {
  var networking: any Networking { HTTPNetworking() }
  var parser: any Parser { JSONParser() }
}

@available(*, deprecated)
@MainActor final class LegacyBackend {
  @Injected(\.networking) var network  // scope .local, lifespan .temporary
  @Injected(\.parser, lifespan: .permanent, scope: .shared) var parser

  func fetch() {
    network.instance.fetch()
  }
}

@available(*, deprecated)
@MainActor final class LegacyFetcher {
  @Injected(\.networking) var network

  func fetch() {
    network.instance.fetch()
  }
}

@available(*, deprecated)
@MainActor final class LifespanFirst {
  @Injected(\.networking, lifespan: .temporary, scope: .local) var network
}

@available(*, deprecated)
@MainActor final class ScopeFirst {
  @Injected(\.networking, scope: .local, lifespan: .temporary) var network
}

@Suite @MainActor struct LegacySymbolSamples {
  @Test func eachConsumerGetsItsOwnTemporaryNetworkingAndSharesThePermanentParser() {
    scenarios.eachConsumerGetsItsOwnTemporaryNetworkingAndSharesThePermanentParser()
  }
  @Test func aDependencyOverrideReplacesTheInstanceForOneConsumer() {
    scenarios.aDependencyOverrideReplacesTheInstanceForOneConsumer()
  }
  @Test func bothInitializerOrdersBuildOnePerConsumer() { scenarios.bothInitializerOrdersBuildOnePerConsumer() }

  /// The scenarios, through their protocol, which is not deprecated: calling them warns of nothing.
  private var scenarios: any LegacySymbolScenarios { LegacySymbols() }
}

/// The scenarios of ``LegacySymbolSamples``, declared without deprecation.
@MainActor protocol LegacySymbolScenarios {
  func eachConsumerGetsItsOwnTemporaryNetworkingAndSharesThePermanentParser()
  func aDependencyOverrideReplacesTheInstanceForOneConsumer()
  func bothInitializerOrdersBuildOnePerConsumer()
}

struct LegacySymbols: LegacySymbolScenarios {}

@available(*, deprecated)
extension LegacySymbols {
  func eachConsumerGetsItsOwnTemporaryNetworkingAndSharesThePermanentParser() {
    let (first, second) = (LegacyBackend(), LegacyBackend())
    first.fetch()
    #expect(first.network.instance !== second.network.instance)
    #expect(first.parser.instance === second.parser.instance)
  }

  func aDependencyOverrideReplacesTheInstanceForOneConsumer() {
    let consumer = LegacyFetcher()
    consumer.network.override(with: MockNetworking())
    consumer.fetch()
    #expect(consumer.network.instance is MockNetworking)
    #expect(LegacyFetcher().network.instance is HTTPNetworking)
  }

  func bothInitializerOrdersBuildOnePerConsumer() {
    #expect(LifespanFirst().network.instance !== LifespanFirst().network.instance)
    #expect(ScopeFirst().network.instance !== ScopeFirst().network.instance)
  }
}
