import Inject
import Testing

/// Each scope and lifespan of 1.x, in the Swift 5 language mode: which consumers share an
/// instance, how many are built, and when they are released.
///
/// Each test runs in a test world of its own: they check identities, and the global world's
/// instances are dropped by the global rollbacks of the tests beside them in the process, in any
/// injection (exact rollback; a released injection's overrides are rolled back too).
@Suite @MainActor struct LegacyLifetimeTests {
  @Test func localTemporaryBuildsOneForEachConsumerReleasedWithIt() {
    withIsolatedInjections { scenarios.localTemporaryBuildsOneForEachConsumerReleasedWithIt() }
  }
  @Test func localPermanentBuildsOneForEachConsumerAndKeepsThemAll() {
    withIsolatedInjections { scenarios.localPermanentBuildsOneForEachConsumerAndKeepsThemAll() }
  }
  @Test func sharedPermanentBuildsOneForEveryConsumerAndKeepsIt() {
    withIsolatedInjections { scenarios.sharedPermanentBuildsOneForEveryConsumerAndKeepsIt() }
  }
  @Test func sharedTemporaryIsSharedWhileAConsumerHoldsItThenBuiltAnew() {
    withIsolatedInjections { scenarios.sharedTemporaryIsSharedWhileAConsumerHoldsItThenBuiltAnew() }
  }
  @Test func overrideReplacesTheInstanceOfThatConsumerOnly() {
    withIsolatedInjections { scenarios.overrideReplacesTheInstanceOfThatConsumerOnly() }
  }
  @Test func injectingBeforeTheFirstReadBuildsNothing() {
    withIsolatedInjections { scenarios.injectingBeforeTheFirstReadBuildsNothing() }
  }

  /// The scenarios, through their protocol, which is not deprecated: calling them warns of nothing.
  private var scenarios: any LegacyLifetimeScenarios { LegacyLifetime() }
}

/// The scenarios of ``LegacyLifetimeTests``.
///
/// Declared without deprecation so that the tests above call them without a warning; `LegacyLifetime`
/// implements each with the 1.x API, in a deprecated extension.
@MainActor protocol LegacyLifetimeScenarios {
  func localTemporaryBuildsOneForEachConsumerReleasedWithIt()
  func localPermanentBuildsOneForEachConsumerAndKeepsThemAll()
  func sharedPermanentBuildsOneForEveryConsumerAndKeepsIt()
  func sharedTemporaryIsSharedWhileAConsumerHoldsItThenBuiltAnew()
  func overrideReplacesTheInstanceOfThatConsumerOnly()
  func injectingBeforeTheFirstReadBuildsNothing()
}

struct LegacyLifetime: LegacyLifetimeScenarios {}

@available(*, deprecated)
extension LegacyLifetime {
  func localTemporaryBuildsOneForEachConsumerReleasedWithIt() {
    var first: ProbeConsumer? = ProbeConsumer(\.localTemporaryProbe, lifespan: .temporary, scope: .local)
    let second = ProbeConsumer(\.localTemporaryProbe, lifespan: .temporary, scope: .local)
    weak let firstProbe = first?.probe.instance
    #expect(first?.probe.instance === firstProbe, "the consumer keeps its instance")
    #expect(second.probe.instance !== firstProbe)
    #expect(Probe.built["localTemporary"] == 2)
    first = nil
    #expect(firstProbe == nil)
  }

  func localPermanentBuildsOneForEachConsumerAndKeepsThemAll() {
    weak var firstProbe: Probe?
    weak var secondProbe: Probe?
    do {
      firstProbe = ProbeConsumer(\.localPermanentProbe, lifespan: .permanent, scope: .local).probe.instance
      secondProbe = ProbeConsumer(\.localPermanentProbe, lifespan: .permanent, scope: .local).probe.instance
    }
    #expect(firstProbe !== secondProbe)
    #expect(firstProbe != nil && secondProbe != nil, "1.x kept each until the app ended")
    #expect(Probe.built["localPermanent"] == 2)
  }

  func sharedPermanentBuildsOneForEveryConsumerAndKeepsIt() {
    weak var shared: Probe?
    do {
      shared = ProbeConsumer(\.sharedPermanentProbe, lifespan: .permanent, scope: .shared).probe.instance
    }
    #expect(shared != nil)
    #expect(ProbeConsumer(\.sharedPermanentProbe, lifespan: .permanent, scope: .shared).probe.instance === shared)
    #expect(Probe.built["sharedPermanent"] == 1)
  }

  /// The one difference from 1.x in lifetimes, listed in MIGRATION.md.
  ///
  /// 1.x held the instance only weakly and its consumers not at all, so it was released at
  /// once, before a second consumer could share it. 2.0 keeps it in each consumer, as 1.x's
  /// README described.
  func sharedTemporaryIsSharedWhileAConsumerHoldsItThenBuiltAnew() {
    var first: ProbeConsumer? = ProbeConsumer(\.sharedTemporaryProbe, lifespan: .temporary, scope: .shared)
    var second: ProbeConsumer? = ProbeConsumer(\.sharedTemporaryProbe, lifespan: .temporary, scope: .shared)
    weak let shared = first?.probe.instance
    #expect(second?.probe.instance === shared)
    first = nil
    #expect(shared != nil, "the second consumer still holds it")
    second = nil
    #expect(shared == nil)
    let third = ProbeConsumer(\.sharedTemporaryProbe, lifespan: .temporary, scope: .shared)
    #expect(third.probe.instance.describe() == "sharedTemporary")
    #expect(Probe.built["sharedTemporary"] == 2)
  }

  func overrideReplacesTheInstanceOfThatConsumerOnly() {
    let consumer = ProbeConsumer(\.overriddenProbe, lifespan: .permanent, scope: .shared)
    let resolved = consumer.probe.instance
    let replacement = Probe("replacement")
    consumer.probe.override(with: replacement)
    #expect(consumer.probe.instance === replacement)
    #expect(ProbeConsumer(\.overriddenProbe, lifespan: .permanent, scope: .shared).probe.instance === resolved)
  }

  func injectingBeforeTheFirstReadBuildsNothing() {
    let replacement = Probe("replacement")
    let consumer = ProbeConsumer(\.injectedProbe, lifespan: .temporary, scope: .local)
      .injecting(replacement, for: \.probe)
    #expect(consumer.probe.instance === replacement)
    #expect(Probe.built["injected"] == nil)
  }
}
