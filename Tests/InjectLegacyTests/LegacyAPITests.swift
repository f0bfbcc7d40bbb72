import Inject
import Testing

/// 1.x code, unchanged, runs on the 2.0 engine as it ran before.
///
/// This target is the one place where deprecation warnings are expected: Package.swift keeps
/// them warnings here, while every other warning, here and in every target, is an error.
@Suite @MainActor struct LegacyAPITests {
  @Test func localTemporaryIsANewInstanceForEachConsumerReleasedWithIt() {
    weak var weakFirst: LegacyService?
    var first: LegacyConsumer? = LegacyConsumer()
    let second = LegacyConsumer()
    weakFirst = first?.localTemporary.instance
    #expect(weakFirst !== second.localTemporary.instance)
    first = nil
    #expect(weakFirst == nil)
  }

  @Test func sharedTemporaryIsSharedAndReleasedAfterTheLastConsumer() {
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

  @Test func sharedPermanentIsSharedAndKeptUntilTheAppEnds() {
    weak var weakShared: LegacyService?
    do {
      let first = LegacyConsumer()
      weakShared = first.sharedPermanent.instance
      #expect(LegacyConsumer().sharedPermanent.instance === weakShared)
    }
    #expect(weakShared != nil)
    #expect(LegacyConsumer().sharedPermanent.instance === weakShared)
  }

  @Test func localPermanentIsANewInstanceForEachConsumerKeptUntilTheAppEnds() {
    weak var weakFirst: LegacyService?
    do {
      let first = LegacyConsumer()
      weakFirst = first.localPermanent.instance
      #expect(LegacyConsumer().localPermanent.instance !== weakFirst)
    }
    #expect(weakFirst != nil)
  }

  @Test func bothInitializerOrdersMeanTheSame() {
    let consumer = LegacyConsumer()
    #expect(consumer.sharedPermanent.instance === consumer.sharedPermanentReadmeOrder.instance)
  }

  @Test func injectingReplacesTheInstanceForThatConsumerOnly() {
    let mock = LegacyService()
    let view = LegacyView().injecting(mock, for: \.network)
    #expect(view.network.instance === mock)
    #expect(LegacyView().network.instance !== mock)
  }

  @Test func instanceCanBeReadOffTheMainThread() async {
    let actor = LegacyActor()
    let fromActor = await actor.name()
    let fromDetached = await Task.detached { LegacyConsumer().localTemporary.instance.name }.value
    #expect(fromActor == "legacy")
    #expect(fromDetached == "legacy")
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

// MARK: - 1.x fixtures, written as 1.x code

final class LegacyService: Sendable {
  let name = "legacy"
}

extension DefaultValues {
  var legacyLocalTemporary: LegacyService { LegacyService() }
  var legacySharedTemporary: LegacyService { LegacyService() }
  var legacySharedPermanent: LegacyService { LegacyService() }
  var legacyLocalPermanent: LegacyService { LegacyService() }
  var legacyNetwork: LegacyService { LegacyService() }
}

final class LegacyConsumer {
  @Injected(\.legacyLocalTemporary) var localTemporary
  @Injected(\.legacySharedTemporary, lifespan: .temporary, scope: .shared) var sharedTemporary
  @Injected(\.legacySharedPermanent, lifespan: .permanent, scope: .shared) var sharedPermanent
  @Injected(\.legacySharedPermanent, scope: .shared, lifespan: .permanent) var sharedPermanentReadmeOrder
  @Injected(\.legacyLocalPermanent, lifespan: .permanent) var localPermanent
}

struct LegacyView: Injectable {
  @Injected(\.legacyNetwork) var network
}

actor LegacyActor {
  @Injected(\.legacySharedPermanent, lifespan: .permanent, scope: .shared) var crossReferenceA
  func name() -> String { crossReferenceA.instance.name }
}
