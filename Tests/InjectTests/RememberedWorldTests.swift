import Dispatch
import Foundation
import Inject
import InjectTesting
import Testing

/// A consumer made in a scope or a test keeps the world's configuration, and resolves with it
/// wherever and whenever it first reads; it never keeps the world's storage alive.
///
/// Each test publishes its own injections, so that tests running in parallel share none.
@Suite @MainActor struct RememberedWorldTests {
  @Test func aModelMadeInAScopeAndReadAfterItGetsTheScopesOverride() {
    let (client, _) = makeInjection(.singleton, name: "live")
    let model = client.withOverride(ServiceImplementation("mock")) { Consumer(client) }
    #expect(model.service.name == "mock")
    #expect(Consumer(client).service.name == "live #1", "a model made outside the scope gets the live value")
  }

  @Test func aModelReadAfterItsScopeGetsTheScopesSingletonWhileSomethingHoldsIt() {
    let (client, factory) = makeInjection(.singleton, name: "scoped")
    let (held, late) = withIsolatedInjections {
      (Consumer(client).service, Consumer(client))
    }
    #expect(late.service === held, "the scope's .singleton is alive elsewhere: found again")
    #expect(factory.calls == 1)
  }

  @Test func aModelReadAfterItsScopeGetsANewSingletonOnceNothingHoldsTheOldOne() {
    let (client, factory) = makeInjection(.singleton, name: "scoped")
    weak var first: (any Service)?
    let late = withIsolatedInjections {
      first = Consumer(client).service
      return Consumer(client)
    }
    #expect(first == nil, "the scope's storage is gone, and nothing else held its .singleton")
    #expect(late.service.name == "scoped #2")
    #expect(factory.calls == 2)
  }

  @Test func twoModelsMadeInOneScopeAndReadAfterItShareItsSingleton() {
    let (client, factory) = makeInjection(.singleton)
    let (first, second) = client.withOverride(ServiceImplementation("scoped"), strategy: .singleton) {
      (Consumer(client), Consumer(client))
    }
    let instance = first.service
    #expect(instance.name == "scoped")
    #expect(second.service === instance, "the second late consumer finds what the first one holds")
    #expect(factory.calls == 0)
  }

  @Test func aChildModelMadeInAFactoryAndReadAfterItsWorldEndedGetsTheWorldsOverride() {
    let (client, _) = makeInjection(.onDemand, name: "live")
    let parent = Injection<ChildHolder>(strategy: .singleton, instance: ChildHolder(child: Consumer(client)))
    let model = client.withOverride(ServiceImplementation("mock")) { parent.resolve() }
    #expect(model.child.service.name == "mock")
  }

  @Test func aModelMadeOutsideEveryWorldResolvesInTheScopeItFirstReadsIn() {
    let (client, _) = makeInjection(.singleton, name: "live")
    let model = Consumer(client)
    let name = client.withOverride(ServiceImplementation("mock")) { model.service.name }
    #expect(name == "mock")
  }

  @Test func aModelReadInAScopeNestedInItsWorldResolvesInTheNestedScope() {
    let (client, _) = makeInjection(.singleton, name: "live")
    let (other, _) = makeInjection(.singleton, name: "other")
    let name = client.withOverride(ServiceImplementation("outer")) {
      let model = Consumer(client)
      return other.withOverride(ServiceImplementation("nested")) {
        client.withOverride(ServiceImplementation("inner")) { model.service.name }
      }
    }
    #expect(name == "inner")
  }

  @Test func aModelReadInAnUnrelatedScopeResolvesInItsOwnWorld() {
    let (client, _) = makeInjection(.singleton, name: "live")
    let model = client.withOverride(ServiceImplementation("mine")) { Consumer(client) }
    let name = client.withOverride(ServiceImplementation("theirs")) { model.service.name }
    #expect(name == "mine")
  }

  /// The cycle the decision avoids: a `.singleton` that holds a consumer it has not read keeps
  /// the world's configuration, never its storage, so the world is released with its scope.
  @Test func aWorldWhoseInstanceHoldsAnUnreadConsumerIsReleasedWithItsScope() {
    let (client, _) = makeInjection(.singleton)
    let coordinator = Injection<ChildHolder>(strategy: .singleton, instance: ChildHolder(child: Consumer(client)))
    weak var stored: ChildHolder?
    weak var mock: ServiceImplementation?
    do {
      let instance = ServiceImplementation("mock")
      mock = instance
      client.withOverride(instance) {
        stored = coordinator.resolve()
      }
    }
    #expect(stored == nil, "the world, and the .singleton it stored, are gone with the scope")
    #expect(mock == nil, "the scope's override, which only the unread consumer remembered, went with it")
  }

  @Test func aModelKeepsNothingOfTheWorldOnceItHasResolved() {
    let (client, _) = makeInjection(.onDemand)
    weak var mock: ServiceImplementation?
    let model = withIsolatedInjections {
      let instance = ServiceImplementation("mock")
      mock = instance
      return client.withOverride(instance, strategy: .onDemand) { Consumer(client) }
    }
    #expect(mock != nil, "the unread model remembers the scope's override")
    _ = model.service
    model.$service.reset()
    #expect(mock == nil, "a resolved model holds its instance and nothing of the world")
  }

  @Test(.timeLimit(.minutes(4)), .overriding(callbackClient, with: ServiceImplementation("mock")))
  func aModelMadeInATestAndReadInAMainQueueBlockGetsTheTestsInstance() async {
    let model = Model(callbackClient)
    let name = await withCheckedContinuation { continuation in
      DispatchQueue.main.async {
        MainActor.assumeIsolated { continuation.resume(returning: model.service.name) }
      }
    }
    #expect(name == "mock")
  }

  @Test(.timeLimit(.minutes(4)), .overriding(callbackClient, with: ServiceImplementation("mock")))
  func aModelMadeInATestAndReadInADetachedTaskGetsTheTestsInstance() async {
    let model = Model(callbackClient)
    let name = await Task.detached { await model.name }.value
    #expect(name == "mock")
  }

  @Test(.timeLimit(.minutes(4)), .isolatedInjections)
  func aModelMadeInATestAndReadInANotificationObserverGetsTheTestValueWithNoWarning() async {
    let model = Model(testedClient)
    let name = Notification.Name("RememberedWorldTests.\(#function)")
    let (read, warnings) = await withDebugWarningsCaptured {
      await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
        let token = Box<(any NSObjectProtocol)?>(nil)
        token.value = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
          MainActor.assumeIsolated {
            token.value.map(NotificationCenter.default.removeObserver)
            continuation.resume(returning: model.service.name)
          }
        }
        Task.detached { NotificationCenter.default.post(name: name, object: nil) }
      }
    }
    #expect(read == "test")
    #expect(warnings.isEmpty, "\(warnings)")
  }

  @Test(.timeLimit(.minutes(4)), .overriding(callbackClient, with: ServiceImplementation("mock")))
  func aCarriedWorldRunsADetachedTasksResolutionsInTheTest() async {
    let world = InjectionWorld.current
    #expect(!world.isGlobal)
    let (synchronous, asynchronous) = await Task.detached {
      let synchronous = await MainActor.run { world.run { callbackClient.resolve().name } }
      let asynchronous = await world.run { await MainActor.run { Consumer(callbackClient).service.name } }
      return (synchronous, asynchronous)
    }.value
    #expect(synchronous == "mock")
    #expect(asynchronous == "mock")
  }

  @Test func aCarriedWorldOutlivesItsScopeAndFindsItsSingletonWhileSomethingHoldsIt() {
    let (client, factory) = makeInjection(.singleton)
    let (world, held) = client.withOverride(ServiceImplementation("scoped"), strategy: .singleton) {
      (InjectionWorld.current, client.resolve())
    }
    #expect(world.run { client.resolve() } === held)
    let child = world.run { Consumer(client) }
    #expect(child.service === held, "a child model made in world.run remembers the carried world")
    #expect(factory.calls == 0)
  }

  /// A world of the remembered configuration ends on another thread between two late reads on
  /// the main actor: the second finds what the first stored at once, with no main-actor hop.
  @Test(.timeLimit(.minutes(4))) func aLateReadFindsWhatAWorldThatJustEndedOnAnotherThreadStored() {
    let (client, factory) = makeInjection(.singleton)
    let (world, first, second) = withIsolatedInjections {
      (InjectionWorld.current, Consumer(client), Consumer(client))
    }
    let opened = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    Thread {
      world.run {
        opened.signal()
        release.wait()
      }
      ended.signal()
    }.start()
    wait(for: opened)
    let instance = first.service
    release.signal()
    wait(for: ended)
    #expect(second.service === instance)
    #expect(factory.calls == 1)
  }

  @Test func theGlobalWorldCarriedIntoAScopeRunsOutsideIt() {
    let (client, _) = makeInjection(.singleton, name: "live")
    let global = InjectionWorld.current
    #expect(global.isGlobal)
    let name = client.withOverride(ServiceImplementation("mock")) { global.run { client.resolve().name } }
    #expect(name == "live #1")
  }

  /// A user's graph: a view model made in a test holds a `.singleton` repository, which holds
  /// the API client the test overrides; the model first reads in a callback after the test's
  /// scope ended, and the repository is the scope's, built with the mock.
  @Test func aViewModelsGraphReadLateIsBuiltWithTheOverride() {
    let (api, _) = makeInjection(.singleton, name: "live")
    let repository = Injection<LateRepository>(strategy: .singleton, instance: LateRepository(api: Consumer(api)))
    let viewModel = api.withOverride(ServiceImplementation("mock")) { Consumer(repository) }
    #expect(viewModel.service.api.service.name == "mock")
    #expect(Consumer(repository).service.api.service.name == "live #1", "the global world's is its own")
  }
}

/// Tests that read in callbacks, sixty-four at once, each overriding the client with its own
/// instance: no model ever reads another test's.
@Suite @MainActor struct RememberedWorldParallelTests {
  @Test(.timeLimit(.minutes(4)), arguments: 0..<64)
  func parallelTestsReadingFromCallbacksNeverCross(index: Int) async {
    await callbackClient.withOverride(ServiceImplementation("test \(index)")) {
      let models = (0..<4).map { _ in Model(callbackClient) }
      let names = await withTaskGroup(of: String.self) { group in
        for model in models {
          group.addTask { await Task.detached { await model.name }.value }
        }
        var names: [String] = []
        for await name in group {
          names.append(name)
        }
        return names
      }
      #expect(names == Array(repeating: "test \(index)", count: 4))
    }
  }
}

/// Strict tests: a callback's resolution counts as the test's while the test runs.
@Suite @MainActor struct RememberedWorldStrictTests {
  @Test(.timeLimit(.minutes(4))) func aStrictTestWhoseCallbackResolvesAnUntestedInjectionIsReported() async {
    let reports = Box<[String]>([])
    await withIsolatedInjections(
      reportingLeaks: nil,
      reportingUntested: { report in Task { @MainActor in reports.value.append(report.description) } },
      operation: {
        let model = Model(untestedClient)
        _ = await Task.detached { await model.name }.value
      })
    await Task.yield()
    #expect(reports.value.count == 1)
    #expect(
      reports.value.first?.contains("Injection<Service> (InjectTests/RememberedWorldTests.swift:") == true,
      "\(reports.value)")
  }

  @Test(.timeLimit(.minutes(4))) func aConsumerMadeInAStrictTestAndReadAfterItWarnsThatTheTestEnded() async {
    let reports = Box<[String]>([])
    let model = await withIsolatedInjections(
      reportingLeaks: nil,
      reportingUntested: { report in Task { @MainActor in reports.value.append(report.description) } },
      operation: { Consumer(untestedClient) })
    let (_, warnings) = withDebugWarningsCaptured { _ = model.service }
    await Task.yield()
    #expect(reports.value.isEmpty, "the test has ended: no issue of it")
    #expect(shownInDebugBuilds(warnings).count == expectedWarningCount(1))
    #expect(
      shownInDebugBuilds(warnings).allSatisfy { $0.contains("a consumer made in a strict test whose world has ended") })
  }
}

private let callbackClient = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation("live"))
private let testedClient = Injection<any Service>(
  strategy: .singleton, instance: ServiceImplementation("live"), test: ServiceImplementation("test"))
private let untestedClient = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation("live"))

/// A model whose initializer makes a child model it does not read.
private final class ChildHolder {
  let child: Consumer<any Service>
  init(child: Consumer<any Service>) { self.child = child }
}

/// A repository that holds the API client's consumer.
private final class LateRepository {
  let api: Consumer<any Service>
  init(api: Consumer<any Service>) { self.api = api }
}

/// A mutable reference that the tests' callbacks share.
private final class Box<Value>: @unchecked Sendable {
  // NB: `@unchecked Sendable` only for tests: every access is on the main actor, or in a
  // notification observer that the main queue runs.
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// A main-actor view model, which tasks and callbacks may hold.
@MainActor private final class Model {
  @Instance var service: any Service
  init(_ injection: Injection<any Service>) { _service = Instance(injection) }
  /// The service's name: the first read resolves it.
  var name: String { service.name }
}
