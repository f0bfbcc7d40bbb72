import Inject
import Testing

/// The 1.x API in the Swift 6 language mode runs on the 2.0 engine as it ran in 1.x.
///
/// The Swift 6 mode infers no type's isolation from its property wrappers (SE-0401), so the
/// consumers here are written as the Swift 6 mode needs (see MIGRATION.md): a main-actor class,
/// a nonisolated class with an initializer, an actor that awaits its `@Injected` properties.
/// InjectLegacySwift5Tests runs 1.x code unchanged, in the Swift 5 mode.
///
/// Each test runs in a test world of its own: they check identities, and the global world's
/// instances are dropped by the global rollbacks of the tests beside them in the process, in any
/// injection (exact rollback; a released injection's overrides are rolled back too).
@Suite @MainActor struct LegacyAPITests {
  @Test func localTemporaryIsANewInstanceForEachConsumerReleasedWithIt() {
    withIsolatedInjections { scenarios.localTemporaryIsANewInstanceForEachConsumerReleasedWithIt() }
  }
  @Test func sharedTemporaryIsSharedAndReleasedAfterTheLastConsumer() {
    withIsolatedInjections { scenarios.sharedTemporaryIsSharedAndReleasedAfterTheLastConsumer() }
  }
  @Test func sharedPermanentIsSharedAndKeptUntilTheAppEnds() {
    withIsolatedInjections { scenarios.sharedPermanentIsSharedAndKeptUntilTheAppEnds() }
  }
  @Test func localPermanentIsANewInstanceForEachConsumerKeptUntilTheAppEnds() {
    withIsolatedInjections { scenarios.localPermanentIsANewInstanceForEachConsumerKeptUntilTheAppEnds() }
  }
  @Test func bothInitializerOrdersMeanTheSame() {
    withIsolatedInjections { scenarios.bothInitializerOrdersMeanTheSame() }
  }
  @Test func injectingReplacesTheInstanceForThatConsumerOnly() {
    withIsolatedInjections { scenarios.injectingReplacesTheInstanceForThatConsumerOnly() }
  }
  @Test func instanceCanBeReadOffTheMainActor() async {
    await withIsolatedInjections { await scenarios.instanceCanBeReadOffTheMainActor() }
  }
  @Test func overrideCanBeCalledOffTheMainActor() async {
    await withIsolatedInjections { await scenarios.overrideCanBeCalledOffTheMainActor() }
  }
  @Test(.timeLimit(.minutes(4))) func aNonisolatedClassWithAnInitializerDeclaresInjected() {
    withIsolatedInjections { scenarios.aNonisolatedClassWithAnInitializerDeclaresInjected() }
  }

  /// The scenarios, through their protocol, which is not deprecated: calling them warns of nothing.
  private var scenarios: any LegacyAPIScenarios { LegacyAPI() }
}

/// The scenarios of ``LegacyAPITests``.
///
/// Declared without deprecation so that the tests above call them without a warning; `LegacyAPI`
/// implements each with the 1.x API, in a deprecated extension.
@MainActor protocol LegacyAPIScenarios {
  func localTemporaryIsANewInstanceForEachConsumerReleasedWithIt()
  func sharedTemporaryIsSharedAndReleasedAfterTheLastConsumer()
  func sharedPermanentIsSharedAndKeptUntilTheAppEnds()
  func localPermanentIsANewInstanceForEachConsumerKeptUntilTheAppEnds()
  func bothInitializerOrdersMeanTheSame()
  func injectingReplacesTheInstanceForThatConsumerOnly()
  func instanceCanBeReadOffTheMainActor() async
  func overrideCanBeCalledOffTheMainActor() async
  func aNonisolatedClassWithAnInitializerDeclaresInjected()
}

struct LegacyAPI: LegacyAPIScenarios {}

@available(*, deprecated)
extension LegacyAPI {
  func localTemporaryIsANewInstanceForEachConsumerReleasedWithIt() {
    weak var weakFirst: LegacyService?
    var first: LegacyConsumer? = LegacyConsumer()
    let second = LegacyConsumer()
    weakFirst = first?.localTemporary.instance
    #expect(weakFirst !== second.localTemporary.instance)
    first = nil
    #expect(weakFirst == nil)
  }

  func sharedTemporaryIsSharedAndReleasedAfterTheLastConsumer() {
    weak var weakShared: LegacyService?
    var first: LegacyConsumer? = LegacyConsumer()
    var second: LegacyConsumer? = LegacyConsumer()
    weakShared = first?.sharedTemporary.instance
    #expect(second?.sharedTemporary.instance === weakShared)
    first = nil
    #expect(weakShared != nil)
    second = nil
    #expect(weakShared == nil)
  }

  func sharedPermanentIsSharedAndKeptUntilTheAppEnds() {
    weak var weakShared: LegacyService?
    do {
      let first = LegacyConsumer()
      weakShared = first.sharedPermanent.instance
      #expect(LegacyConsumer().sharedPermanent.instance === weakShared)
    }
    #expect(weakShared != nil)
    #expect(LegacyConsumer().sharedPermanent.instance === weakShared)
  }

  func localPermanentIsANewInstanceForEachConsumerKeptUntilTheAppEnds() {
    weak var weakFirst: LegacyService?
    do {
      let first = LegacyConsumer()
      weakFirst = first.localPermanent.instance
      #expect(LegacyConsumer().localPermanent.instance !== weakFirst)
    }
    #expect(weakFirst != nil)
  }

  func bothInitializerOrdersMeanTheSame() {
    let consumer = LegacyConsumer()
    #expect(consumer.sharedPermanent.instance === consumer.sharedPermanentReadmeOrder.instance)
  }

  func injectingReplacesTheInstanceForThatConsumerOnly() {
    let mock = LegacyService()
    let view = LegacyView().injecting(mock, for: \.network)
    #expect(view.network.instance === mock)
    #expect(LegacyView().network.instance !== mock)
  }

  func instanceCanBeReadOffTheMainActor() async {
    let actor = LegacyActor()
    let fromActor = await actor.sharedService()
    let dependency = LegacyConsumer().localTemporary
    let fromDetached = await Task.detached { dependency.instance }.value
    #expect(fromActor === LegacyConsumer().sharedPermanent.instance)
    #expect(fromDetached === dependency.instance)
  }

  func overrideCanBeCalledOffTheMainActor() async {
    let dependency = LegacyConsumer().localTemporary
    let replacement = LegacyService()
    await Task.detached { dependency.override(with: replacement) }.value
    #expect(dependency.instance === replacement)
  }

  func aNonisolatedClassWithAnInitializerDeclaresInjected() {
    let consumer = NonisolatedLegacyConsumer()
    #expect(consumer.service.instance !== NonisolatedLegacyConsumer().service.instance)
  }
}

/// Each row of MIGRATION.md's table, migrated to 2.0: the same behaviour as the 1.x form.
///
/// The 2.0 forms use `LegacyService` too, published as MIGRATION.md shows.
@Suite @MainActor struct MigratedFormTests {
  @Test func localTemporaryBecomesOnDemand() {
    let injection = Injection<LegacyService>(strategy: .onDemand, instance: LegacyService())
    weak var weakFirst: LegacyService?
    var first: MigratedConsumer? = MigratedConsumer(injection)
    weakFirst = first?.service
    #expect(weakFirst !== MigratedConsumer(injection).service)
    first = nil
    #expect(weakFirst == nil)
  }

  @Test func sharedTemporaryBecomesShared() {
    let injection = Injection<LegacyService>(strategy: .shared, instance: LegacyService())
    weak var weakShared: LegacyService?
    var first: MigratedConsumer? = MigratedConsumer(injection)
    var second: MigratedConsumer? = MigratedConsumer(injection)
    weakShared = first?.service
    #expect(second?.service === weakShared)
    first = nil
    #expect(weakShared != nil)
    second = nil
    #expect(weakShared == nil)
  }

  @Test func sharedPermanentBecomesSingleton() {
    let injection = Injection<LegacyService>(strategy: .singleton, instance: LegacyService())
    weak var weakShared: LegacyService?
    do { weakShared = MigratedConsumer(injection).service }
    #expect(weakShared != nil)
    #expect(MigratedConsumer(injection).service === weakShared)
  }

  @Test func localPermanentBecomesOnDemandWhichReleasesWithTheConsumer() {
    let injection = Injection<LegacyService>(strategy: .onDemand, instance: LegacyService())
    weak var weakFirst: LegacyService?
    var first: MigratedConsumer? = MigratedConsumer(injection)
    weakFirst = first?.service
    #expect(weakFirst !== MigratedConsumer(injection).service, "still a new instance for each consumer")
    first = nil
    #expect(weakFirst == nil, "no longer kept until the app ends: see MIGRATION.md")
  }

  @Test func injectingBecomesAssigningTheProperty() {
    let injection = Injection<LegacyService>(strategy: .onDemand, instance: LegacyService())
    let view = MigratedView(injection)
    let mock = LegacyService()
    view.network = mock
    #expect(view.network === mock)
    #expect(MigratedView(injection).network !== mock)
  }
}

private final class MigratedConsumer {
  @Instance var service: LegacyService
  init(_ injection: Injection<LegacyService>) { _service = Instance(injection) }
}

private struct MigratedView {
  @Instance var network: LegacyService
  init(_ injection: Injection<LegacyService>) { _network = Instance(injection) }
}

// MARK: - 1.x fixtures, in the forms the Swift 6 mode needs

final class LegacyService: Sendable {
  let name = "legacy"
}

@available(*, deprecated)
extension DefaultValues {
  var legacyLocalTemporary: LegacyService { LegacyService() }
  var legacySharedTemporary: LegacyService { LegacyService() }
  var legacySharedPermanent: LegacyService { LegacyService() }
  var legacyLocalPermanent: LegacyService { LegacyService() }
  var legacyNetwork: LegacyService { LegacyService() }
  var legacyNonisolated: LegacyService { LegacyService() }
}

@available(*, deprecated)
@MainActor final class LegacyConsumer {
  @Injected(\.legacyLocalTemporary) var localTemporary
  @Injected(\.legacySharedTemporary, lifespan: .temporary, scope: .shared) var sharedTemporary
  @Injected(\.legacySharedPermanent, lifespan: .permanent, scope: .shared) var sharedPermanent
  @Injected(\.legacySharedPermanent, scope: .shared, lifespan: .permanent) var sharedPermanentReadmeOrder
  @Injected(\.legacyLocalPermanent, lifespan: .permanent) var localPermanent
}

@available(*, deprecated)
@MainActor struct LegacyView: Injectable {
  @Injected(\.legacyNetwork) var network
}

/// Its `@Injected` property is main-actor-isolated: the actor awaits it, then reads `.instance`.
@available(*, deprecated)
actor LegacyActor {
  @Injected(\.legacySharedPermanent, lifespan: .permanent, scope: .shared) var crossReferenceA
  func sharedService() async -> LegacyService { await crossReferenceA.instance }
}

/// The Swift 6 mode needs the main-actor initializer: the property's initial value forms a key
/// path to a main-actor-isolated `DefaultValues` property, which a nonisolated initializer
/// cannot evaluate.
@available(*, deprecated)
final class NonisolatedLegacyConsumer {
  @Injected(\.legacyNonisolated) var service

  @MainActor init() {}
}
