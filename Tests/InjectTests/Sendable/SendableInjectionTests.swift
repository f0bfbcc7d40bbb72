import Foundation
import Inject
import InjectTesting
import Testing

/// A service that any isolation may hold.
private protocol SendableClient: AnyObject, Sendable {
  var name: String { get }
}

private final class LiveSendableClient: SendableClient {
  let name: String
  init(_ name: String = "live") { self.name = name }
}

/// A client that counts its builds and, optionally, its instances alive.
private final class CountedClient: SendableClient {
  let name: String
  private let live: Counter?
  init(_ name: String, builds: Counter, live: Counter? = nil) {
    self.name = name
    self.live = live
    builds.increment()
    live?.increment()
  }
  deinit { live?.decrement() }
}

/// A repository that holds the client it was built with.
private final class ClientRepository: Sendable {
  let client: any SendableClient
  init(_ client: any SendableClient) { self.client = client }
}

private actor ClientLoader {
  @SendableInstance var client: any SendableClient
  init(_ injection: SendableInjection<any SendableClient>) { _client = SendableInstance(injection) }
  func clientName() -> String { client.name }
  func clientIdentity() -> ObjectIdentifier { ObjectIdentifier(client) }
}

private final class PlainConsumer {
  @SendableInstance var client: any SendableClient
  init(_ injection: SendableInjection<any SendableClient>) { _client = SendableInstance(injection) }
}

private struct StructConsumer {
  @SendableInstance var client: any SendableClient
  init(_ injection: SendableInjection<any SendableClient>) { _client = SendableInstance(injection) }
}

@MainActor private final class MainActorConsumer {
  @SendableInstance var client: any SendableClient
  init(_ injection: SendableInjection<any SendableClient>) { _client = SendableInstance(injection) }
}

/// Each test publishes its own injections, and runs in a test world of its own.
///
/// Every rollback drops what any injection stored since its push (the rule is by time), so a
/// global rollback in a test running beside this one, of either kind, would rebuild what this
/// one stored meanwhile and compares by identity. In a test world, `override(with:)` and its
/// rollback act on the test's own stack and log; SendableGlobalRollbackTests tests the global
/// stack.
@Suite(.isolatedInjections, .misusesOnPurpose) struct SendableInjectionTests {
  @Test func eachStrategyGivesWhatItPromises() {
    let builds = Counter()
    let live = Counter()
    let singleton = SendableInjection<any SendableClient>(
      strategy: .singleton, instance: CountedClient("singleton", builds: builds))
    let shared = SendableInjection<any SendableClient>(
      strategy: .shared, instance: CountedClient("shared", builds: builds, live: live))
    let onDemand = SendableInjection<any SendableClient>(
      strategy: .onDemand, instance: CountedClient("onDemand", builds: builds))
    #expect(singleton.resolve() === singleton.resolve())
    #expect(builds.value == 1)
    do {
      let first = shared.resolve()
      #expect(first === shared.resolve())
      #expect(live.value == 1)
    }
    #expect(live.value == 0)
    _ = shared.resolve()
    #expect(builds.value == 3)
    #expect(onDemand.resolve() !== onDemand.resolve())
    #expect(builds.value == 5)
  }

  @Test func consumersInEveryIsolationKeepTheirInstance() async {
    let injection = SendableInjection<any SendableClient>(strategy: .onDemand, instance: LiveSendableClient())
    let loader = ClientLoader(injection)
    let first = await loader.clientIdentity()
    #expect(await loader.clientIdentity() == first)
    let plain = PlainConsumer(injection)
    #expect(plain.client === plain.client)
    let value = StructConsumer(injection)
    #expect(value.client === value.client)
    let main = await MainActorConsumer(injection)
    let mainFirst = await main.client
    #expect(await main.client === mainFirst)
    #expect(plain.client !== value.client)
  }

  @Test func assigningAndResettingAffectOneConsumer() {
    let injection = SendableInjection<any SendableClient>(strategy: .singleton, instance: LiveSendableClient())
    let consumer = PlainConsumer(injection)
    let other = PlainConsumer(injection)
    let local = LiveSendableClient("local")
    consumer.client = local
    #expect(consumer.client === local)
    #expect(other.client !== local)
    consumer.$client.reset()
    #expect(consumer.client === other.client)
  }

  /// A detached task resolves outside the test's world, in the global one, where the global
  /// rollbacks of the tests beside this one may rebuild it: names, not identities, tell.
  @Test(.timeLimit(.minutes(4))) func resolvesInADetachedTask() async {
    let injection = SendableInjection<any SendableClient>(strategy: .singleton, instance: LiveSendableClient())
    injection.override(with: LiveSendableClient("test's"))
    #expect(await Task.detached { injection.resolve().name }.value == "live")
    #expect(injection.resolve().name == "test's")
  }

  @Test func overrideAndRollbackRestoreThePublishedInstance() {
    let injection = SendableInjection<any SendableClient>(strategy: .singleton, instance: LiveSendableClient())
    let live = injection.resolve()
    weak var weakMock: (any SendableClient)?
    do {
      let mock = LiveSendableClient("mock")
      weakMock = mock
      injection.override(with: mock)
      #expect(injection.overrideCount == 1)
      #expect(injection.resolve() === mock)
      injection.rollbackOverride()
    }
    #expect(weakMock == nil)
    #expect(injection.overrideCount == 0)
    #expect(injection.resolve() === live)
  }

  /// A sendable singleton repository built while the client was overridden is rebuilt after
  /// the rollback; one built before the push keeps its identity.
  @Test func rollbackDropsTheDependentsBuiltWhileTheOverrideWasInPlace() {
    let client = SendableInjection<any SendableClient>(strategy: .singleton, instance: LiveSendableClient())
    let repository = SendableInjection<ClientRepository>(
      strategy: .singleton, instance: ClientRepository(client.resolve()))
    let other = SendableInjection<ClientRepository>(strategy: .singleton, instance: ClientRepository(client.resolve()))
    let before = other.resolve()
    client.override(with: LiveSendableClient("mock"))
    #expect(repository.resolve().client.name == "mock")
    client.rollbackOverride()
    #expect(repository.resolve().client.name == "live")
    #expect(other.resolve() === before)
  }

  /// A rollback made while a dependent builds (here by its own factory, as another thread's
  /// would) leaves what the build made to its consumer, and stores it for no other.
  @Test func aBuildThatARollbackOverlapsIsNotStored() {
    let client = SendableInjection<any SendableClient>(strategy: .singleton, instance: LiveSendableClient())
    client.override(with: LiveSendableClient("mock"))
    let repository = SendableInjection<ClientRepository>(
      strategy: .singleton,
      instance: {
        let repository = ClientRepository(client.resolve())
        client.rollbackOverride()
        return repository
      }())
    #expect(repository.resolve().client.name == "mock")
    #expect(repository.resolve().client.name == "live")
    #expect(repository.resolve() === repository.resolve())
  }

  @Test func decoratorsComposeAndDelegationFollowsTheOtherInjection() {
    let injection = SendableInjection<any SendableClient>(strategy: .onDemand, instance: LiveSendableClient())
    injection.override(with: { LiveSendableClient("logging(\($0.name))") })
    injection.override(with: { LiveSendableClient("retrying(\($0.name))") })
    #expect(injection.resolve().name == "retrying(logging(live))")
    injection.rollbackAllOverrides()
    let demo = SendableInjection<any SendableClient>(strategy: .singleton, instance: LiveSendableClient("demo"))
    injection.override(with: demo)
    #expect(injection.resolve() === demo.resolve())
    injection.override(with: { LiveSendableClient("decorated(\($0.name))") })
    #expect(injection.resolve().name == "decorated(demo)")
    injection.rollbackAllOverrides()
    #expect(injection.resolve().name == "live")
  }

  /// Pushes from many tasks at once are all kept, and each rollback pops one.
  @Test(.timeLimit(.minutes(4))) func overridesPushedFromManyTasksAtOnceAreAllKept() async {
    let injection = SendableInjection<any SendableClient>(strategy: .singleton, instance: LiveSendableClient())
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<64 {
        group.addTask { injection.override(with: LiveSendableClient("mock \(index)")) }
      }
    }
    #expect(injection.overrideCount == 64)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<64 {
        group.addTask { injection.rollbackOverride() }
      }
    }
    #expect(injection.overrideCount == 0)
    #expect(injection.resolve().name == "live")
  }

  /// On threads of their own, in the test's world, released at once: tasks on a cooperative
  /// pool as wide as two cores started one after another, and never raced for the first build
  /// (a slot that never waited for another's build passed).
  @Test(.timeLimit(.minutes(4))) func aSingletonFirstResolvedBySixtyFourThreadsAtOnceIsBuiltOnce() {
    let builds = Counter()
    let injection = SendableInjection<any SendableClient>(
      strategy: .singleton,
      instance: {
        usleep(10_000)
        return CountedClient("slow", builds: builds)
      }())
    let world = InjectionWorld.current
    let identities = Locked<Set<ObjectIdentifier>>([])
    onThreads(64) { _ in
      let client = world.run { injection.resolve() }
      identities.withLock { _ = $0.insert(ObjectIdentifier(client)) }
    }
    #expect(builds.value == 1)
    #expect(identities.withLock(\.count) == 1)
  }

  /// On threads of their own, as above; each leaf's build takes long enough for the other
  /// threads to arrive while it is in progress.
  @Test(.timeLimit(.minutes(4))) func aFactoryThatResolvesThreeOthersFromSixteenThreadsDoesNotDeadlock() {
    let builds = Counter()
    let leaves = (0..<3).map { index in
      SendableInjection<any SendableClient>(
        strategy: .singleton,
        instance: {
          usleep(5_000)
          return CountedClient("leaf \(index)", builds: builds)
        }())
    }
    let root = SendableInjection<[any SendableClient]>(strategy: .singleton, instance: leaves.map { $0.resolve() })
    let world = InjectionWorld.current
    let identities = Locked<Set<[ObjectIdentifier]>>([])
    onThreads(16) { _ in
      let clients = world.run { root.resolve() }
      identities.withLock { _ = $0.insert(clients.map(ObjectIdentifier.init)) }
    }
    #expect(builds.value == 3)
    #expect(identities.withLock(\.count) == 1)
  }

  /// 64 tasks resolve every strategy while others push and roll back overrides: every
  /// resolution gets a live or mock instance, and the configuration ends as published.
  @Test(.timeLimit(.minutes(4))) func resolutionsAndOverridesFromManyTasksAtOnce() async {
    let iterations = StressScale.count(full: 10_000, quick: 1_000)
    let injections = [Strategy.singleton, .shared, .onDemand].map { strategy in
      SendableInjection<any SendableClient>(strategy: strategy, instance: LiveSendableClient())
    }
    let dependent = SendableInjection<ClientRepository>(
      strategy: .singleton, instance: ClientRepository(injections[0].resolve()))
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<64 {
        group.addTask {
          for iteration in 0..<iterations {
            let injection = injections[(task + iteration) % injections.count]
            if task % 8 == 0 && iteration % 10 == 0 {
              injection.override(with: LiveSendableClient("mock"))
              precondition(["live", "mock"].contains(injection.resolve().name))
              injection.rollbackOverride()
            } else {
              precondition(["live", "mock"].contains(injection.resolve().name))
              precondition(["live", "mock"].contains(dependent.resolve().client.name))
            }
          }
        }
      }
    }
    for injection in injections {
      #expect(injection.overrideCount == 0)
      #expect(injection.resolve().name == "live")
    }
    #expect(dependent.resolve().client.name == "live")
  }
}
