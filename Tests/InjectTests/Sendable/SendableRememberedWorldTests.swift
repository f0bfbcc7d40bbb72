import Dispatch
import Foundation
import Inject
import InjectTesting
import Testing

/// `@SendableInstance` keeps its world's configuration as `@Instance` does: an actor made in a
/// scope or a test resolves with it from any thread, whenever it first reads.
///
/// Each test publishes its own injections, so that tests running in parallel share none.
@Suite struct SendableRememberedWorldTests {
  @Test(.timeLimit(.minutes(4))) func anActorMadeInAScopeAndReadInADetachedTaskAfterItGetsTheScopesOverride() async {
    let client = SendableInjection<LateClient>(strategy: .singleton, instance: LateClient("live"))
    let cache = client.withOverride(LateClient("mock")) { LateImageCache(client) }
    let name = await Task.detached { await cache.clientName }.value
    #expect(name == "mock")
  }

  @Test(.timeLimit(.minutes(4))) func twoActorsMadeInOneScopeAndReadOnOtherThreadsAfterItShareItsSingleton() async {
    let builds = BuildCounter()
    let client = SendableInjection<LateClient>(strategy: .singleton, instance: LateClient("live", counting: builds))
    let (first, second) = client.withOverride(LateClient("scoped", counting: builds), strategy: .singleton) {
      (LateImageCache(client), LateImageCache(client))
    }
    let instance = await Task.detached { await first.client }.value
    let again = await Task.detached { await second.client }.value
    #expect(instance.name == "scoped")
    #expect(again === instance, "the second late consumer finds what the first one holds")
    #expect(builds.value == 1)
  }

  @Test func anActorMadeInAScopeFindsItsSingletonAgainWhileSomethingHoldsIt() async {
    let builds = BuildCounter()
    let client = SendableInjection<LateClient>(strategy: .singleton, instance: LateClient("scoped", counting: builds))
    let (held, cache) = withIsolatedInjections { (client.resolve(), LateImageCache(client)) }
    #expect(await cache.client === held)
    #expect(builds.value == 1)
  }

  @Test(.timeLimit(.minutes(4))) func aChildMadeInAFactoryAndReadAfterItsWorldEndedGetsTheWorldsOverride() async {
    let client = SendableInjection<LateClient>(strategy: .onDemand, instance: LateClient("live"))
    let engine = SendableInjection<LateSyncEngine>(
      strategy: .singleton, instance: LateSyncEngine(cache: LateImageCache(client)))
    let made = client.withOverride(LateClient("mock")) { engine.resolve() }
    let name = await Task.detached { await made.cache.clientName }.value
    #expect(name == "mock")
  }

  /// On the main actor, where a scope's overrides are released as it ends (off it, a moment
  /// later, in a main-actor task).
  @Test @MainActor func aWorldWhoseInstanceHoldsAnUnreadActorIsReleasedWithItsScope() {
    let client = SendableInjection<LateClient>(strategy: .singleton, instance: LateClient("live"))
    let engine = SendableInjection<LateSyncEngine>(
      strategy: .singleton, instance: LateSyncEngine(cache: LateImageCache(client)))
    weak var stored: LateSyncEngine?
    weak var mock: LateClient?
    do {
      let instance = LateClient("mock")
      mock = instance
      client.withOverride(instance) { stored = engine.resolve() }
    }
    #expect(stored == nil, "the world, and the .singleton it stored, are gone with the scope")
    #expect(mock == nil)
  }

  @Test(.timeLimit(.minutes(4)), .overriding(testedClient, with: LateClient("mock")))
  func anActorMadeInATestAndReadFromANotificationOnAnotherThreadGetsTheTestsInstance() async {
    let cache = LateImageCache(testedClient)
    let name = Notification.Name("SendableRememberedWorldTests.\(#function)")
    let read = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
      let observer = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
        // The notification is posted from a detached task, outside every world.
        Task.detached { continuation.resume(returning: await cache.clientName) }
      }
      Task.detached {
        NotificationCenter.default.post(name: name, object: nil)
        NotificationCenter.default.removeObserver(observer)
      }
    }
    #expect(read == "mock")
  }

  @Test(.timeLimit(.minutes(4)), .isolatedInjections)
  func aConsumerReadInADispatchQueueBlockGetsTheTestValue() async {
    let cache = LateImageCache(testedClient)
    let read = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
      DispatchQueue.global().async {
        Task.detached { continuation.resume(returning: await cache.clientName) }
      }
    }
    #expect(read == "test")
  }

  @Test(.timeLimit(.minutes(4)), .overriding(testedClient, with: LateClient("mock")))
  func aCarriedWorldRunsWhatADetachedTaskResolves() async {
    let world = InjectionWorld.current
    let (synchronous, asynchronous) = await Task.detached {
      let synchronous = world.run { testedClient.resolve().name }
      let asynchronous = await world.run { await LateImageCache(testedClient).clientName }
      return (synchronous, asynchronous)
    }.value
    #expect(synchronous == "mock")
    #expect(asynchronous == "mock")
  }

  /// Late readers on many threads at once: one made-again world ends while another begins, and
  /// each finds what the others stored while something holds it.
  @Test(.timeLimit(.minutes(4))) func lateReadersOnManyThreadsAtOnceShareOneSingleton() {
    let builds = BuildCounter()
    let client = SendableInjection<LateClient>(strategy: .singleton, instance: LateClient("live", counting: builds))
    let world = withIsolatedInjections { InjectionWorld.current }
    let held = Locked<[LateClient]>([])
    // Each world made for a late read tells the main actor it is alive and then gone: few
    // enough rounds that the main actor stays free for the tests beside this one.
    for _ in 0..<200 {
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        let instance = world.run { client.resolve() }
        held.withLock { $0.append(instance) }
      }
    }
    let instances = held.withLock { $0 }
    #expect(instances.allSatisfy { $0 === instances[0] }, "one instance while something holds it")
    #expect(builds.value == 1)
  }

  @Test(.timeLimit(.minutes(4))) func aCarriedWorldRunsOnManyThreadsAtOnceWithoutCrossing() {
    let client = SendableInjection<LateClient>(strategy: .singleton, instance: LateClient("live"))
    let worlds = (0..<8).map { index in client.withOverride(LateClient("world \(index)")) { InjectionWorld.current } }
    let reads = Locked<[Int: String]>([:])
    onThreads(16) { thread in
      let index = thread % 8
      let name = worlds[index].run { client.resolve().name }
      reads.withLock { $0[thread] = name }
    }
    #expect(reads.withLock { $0 }.allSatisfy { $0.value == "world \($0.key % 8)" })
  }
}

private let testedClient = SendableInjection<LateClient>(
  strategy: .singleton, instance: LateClient("live"), test: LateClient("test"))

/// Counts builds from any thread.
private final class BuildCounter: Sendable {
  private let count = Locked(0)
  var value: Int { count.withLock { $0 } }
  func increment() { count.withLock { $0 += 1 } }
}

/// The dependency: a class, so `===` and `weak` tell instances apart.
private final class LateClient: Sendable {
  let name: String
  init(_ name: String, counting builds: BuildCounter? = nil) {
    self.name = name
    builds?.increment()
  }
}

/// An actor that consumes the client.
private actor LateImageCache {
  @SendableInstance var client: LateClient
  init(_ injection: SendableInjection<LateClient>) { _client = SendableInstance(injection) }
  var clientName: String { client.name }
}

/// A `.singleton` whose initializer makes an actor it does not read.
private final class LateSyncEngine: Sendable {
  let cache: LateImageCache
  init(cache: LateImageCache) { self.cache = cache }
}
