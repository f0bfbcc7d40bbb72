import Inject
import Testing

// In the Swift 5 language mode, 1.x's main-actor `@Injected` made the properties it wraps, and
// the classes and structs that declare them, main-actor-isolated. The consumers below declare
// no isolation: this file compiles only because that inference holds.

/// Its method calls a main-actor method without `await`: the class is inferred main-actor.
@available(*, deprecated)
final class PlainClassConsumer {
  @Injected(\.classProbe) var probe

  func describeProbe() -> String { probe.instance.describe() }
}

/// Not a SwiftUI view: the struct is main-actor-isolated through `@Injected` alone.
@available(*, deprecated)
struct PlainStructConsumer: Injectable {
  @Injected(\.structProbe, lifespan: .permanent, scope: .shared) var probe

  func describeProbe() -> String { probe.instance.describe() }
}

/// An actor's `@Injected` properties are main-actor-isolated: the main actor reads them
/// synchronously, and the actor with `await`.
@available(*, deprecated)
actor ActorConsumer: Injectable {
  @Injected(\.actorLocalProbe) var local
  @Injected(\.actorSharedProbe, lifespan: .permanent, scope: .shared) var shared

  func sharedDependency() async -> Dependency<Probe> { await shared }
}

@Suite @MainActor struct LegacyIsolationTests {
  @Test func aClassDeclaringInjectedIsMainActorIsolated() { scenarios.aClassDeclaringInjectedIsMainActorIsolated() }
  @Test func aStructDeclaringInjectedIsMainActorIsolated() { scenarios.aStructDeclaringInjectedIsMainActorIsolated() }
  @Test func theMainActorAndTheActorReachTheSameDependency() async {
    await scenarios.theMainActorAndTheActorReachTheSameDependency()
  }
  @Test func anActorsLocalInstanceIsReleasedWithTheActor() { scenarios.anActorsLocalInstanceIsReleasedWithTheActor() }
  @Test func injectingReplacesAnActorsInstance() { scenarios.injectingReplacesAnActorsInstance() }

  /// The scenarios, through their protocol, which is not deprecated: calling them warns of nothing.
  private var scenarios: any LegacyIsolationScenarios { LegacyIsolation() }
}

/// The scenarios of ``LegacyIsolationTests``.
///
/// Declared without deprecation so that the tests above call them without a warning; `LegacyIsolation`
/// implements each with the 1.x API, in a deprecated extension.
@MainActor protocol LegacyIsolationScenarios {
  func aClassDeclaringInjectedIsMainActorIsolated()
  func aStructDeclaringInjectedIsMainActorIsolated()
  func theMainActorAndTheActorReachTheSameDependency() async
  func anActorsLocalInstanceIsReleasedWithTheActor()
  func injectingReplacesAnActorsInstance()
}

struct LegacyIsolation: LegacyIsolationScenarios {}

@available(*, deprecated)
extension LegacyIsolation {
  func aClassDeclaringInjectedIsMainActorIsolated() {
    #expect(PlainClassConsumer().describeProbe() == "class")
  }

  func aStructDeclaringInjectedIsMainActorIsolated() {
    let view = PlainStructConsumer()
    #expect(view.describeProbe() == "struct")
    #expect(PlainStructConsumer().probe.instance === view.probe.instance)
  }

  func theMainActorAndTheActorReachTheSameDependency() async {
    let consumer = ActorConsumer()
    let fromMainActor = consumer.shared
    let fromActor = await consumer.sharedDependency()
    #expect(fromActor === fromMainActor)
    #expect(fromActor.instance === ActorConsumer().shared.instance)
  }

  func anActorsLocalInstanceIsReleasedWithTheActor() {
    var consumer: ActorConsumer? = ActorConsumer()
    weak let probe = consumer?.local.instance
    #expect(probe != nil)
    consumer = nil
    #expect(probe == nil)
  }

  func injectingReplacesAnActorsInstance() {
    let replacement = Probe("replacement")
    let consumer = ActorConsumer().injecting(replacement, for: \.local)
    #expect(consumer.local.instance === replacement)
    #expect(ActorConsumer().local.instance !== replacement)
  }
}
