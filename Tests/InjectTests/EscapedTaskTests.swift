import Dispatch
import Inject
import Synchronization
import Testing

/// A task created inside a scope resolves from that scope's world for its whole life, whatever
/// other tasks do; a detached task does not inherit it; the world's instances are released on
/// the main actor once the scope has ended and the task is gone.
@Suite @MainActor struct EscapedTaskTests {
  @Test(.timeLimit(.minutes(4))) func escapedTaskResolvesFromItsScopeBeforeDuringAndAfterOtherScopes() async throws {
    let graph = Graph()
    let gates = (Gate(), Gate())
    let escaped = graph.api.withOverride(MockAPI("scoped")) {
      Task { @MainActor in
        var reads = [Screen(graph).repository]
        await gates.0.wait()
        reads.append(Screen(graph).repository)
        await gates.1.wait()
        reads.append(Screen(graph).repository)
        return reads
      }
    }
    let inOtherScope = await graph.api.withOverride(MockAPI("other")) {
      // The escaped task reads while this unrelated scope of the same injection is open.
      gates.0.open()
      await Task.yield()
      return Screen(graph).repository
    }
    gates.1.open()
    let reads = await escaped.value
    try #require(reads.count == 3)
    #expect(reads.allSatisfy { $0 === reads[0] }, "one repository, the scope's, for the task's whole life")
    #expect(reads[0].api.name == "scoped")
    #expect(inOtherScope.api.name == "other")
    #expect(Screen(graph).repository.api.name == "live")
  }

  @Test(.timeLimit(.minutes(4))) func tasksCreatedInsideAnEscapedTaskInheritItsScopeAndDetachedOnesDoNot() async {
    let graph = Graph()
    let (inherited, detached) = await graph.api.withOverride(MockAPI("scoped")) {
      Task { @MainActor in
        let inner = await Task { @MainActor in Screen(graph).repository.api.name }.value
        let detached = await Task.detached { @MainActor in Screen(graph).repository.api.name }.value
        return (inner, detached)
      }
    }.value
    #expect(inherited == "scoped")
    #expect(detached == "live")
  }

  @Test(.timeLimit(.minutes(4))) func scopeInstancesLiveWhileAnEscapedTaskDoesAndAreReleasedAfter() async throws {
    let graph = Graph()
    let gate = Gate()
    weak var weakRepository: Repository?
    weak var weakMock: MockAPI?
    var escaped: Task<Void, Never>?
    do {
      let mock = MockAPI("scoped")
      weakMock = mock
      escaped = graph.api.withOverride(mock) {
        weakRepository = Screen(graph).repository
        return Task { @MainActor in
          await gate.wait()
          _ = Screen(graph).repository
        }
      }
    }
    #expect(weakRepository != nil, "the escaped task keeps the scope's world alive")
    #expect(weakMock != nil)
    gate.open()
    await escaped?.value
    escaped = nil
    try await eventually { weakRepository == nil && weakMock == nil }
    #expect(weakRepository == nil)
    #expect(weakMock == nil)
  }
}

/// The same on the thread pool: an unstructured task that inherited the scope ends off the main
/// actor, and is the last holder of the scope's world.
@Suite struct EscapedTaskReleaseTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  @Test(arguments: 0..<8)
  func scopeInstancesAreReleasedOnTheMainActorWhenTheLastHolderEndsOnThePool(index: Int) async throws {
    let deinits = DeinitLog()
    let injection = Injection<MainActorBound>(strategy: .onDemand, instance: MainActorBound("published", deinits))
    let dependent = Injection<MainActorBound>(strategy: .singleton, instance: MainActorBound("singleton", deinits))
    let escaped = await MainActor.run {
      let mock = MainActorBound("mock", deinits)
      // The scope's layer alone holds the mock, and its world the singleton.
      return injection.withOverride(mock) { taskOnThePool(reading: [injection, dependent]) }
    }
    let endedOnTheMainActor = await escaped.value
    #expect(!endedOnTheMainActor, "the escaped task ends on the pool, off the main actor")
    try await eventually { deinits.names.count == 2 }
    #expect(deinits.names.sorted() == ["mock", "singleton"])
    #expect(deinits.offTheMainActor.isEmpty, "released off the main actor: \(deinits.offTheMainActor)")
  }

  /// The same with nothing stored in the world: no main-actor part of its storage takes the
  /// scope's configuration to the main actor, which goes there for its main-actor override.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  @Test(.timeLimit(.minutes(4)), arguments: 0..<8)
  func aScopesValueIsReleasedOnTheMainActorWhenItsWorldStoredNothing(index: Int) async throws {
    let deinits = DeinitLog()
    let injection = Injection<MainActorBound>(strategy: .onDemand, instance: MainActorBound("published", deinits))
    let escaped = await MainActor.run {
      let mock = MainActorBound("mock", deinits)
      // The scope's layer alone holds the mock, and the task alone the scope's world.
      return injection.withOverride(mock) { taskOnThePool(reading: [injection]) }
    }
    let endedOnTheMainActor = await escaped.value
    #expect(!endedOnTheMainActor, "the escaped task ends on the pool, off the main actor")
    try await eventually { deinits.names.count == 1 }
    #expect(deinits.names == ["mock"])
    #expect(deinits.offTheMainActor.isEmpty, "released off the main actor: \(deinits.offTheMainActor)")
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  @Test(.timeLimit(.minutes(4)), arguments: 0..<8)
  func whatAnInjectionCapturedIsReleasedOnTheMainActorWhenTheInjectionIsReleasedOnThePool(index: Int) async throws {
    let deinits = DeinitLog()
    let escaped = await MainActor.run {
      let captured = MainActorBound("captured", deinits)
      let injection = Injection<MainActorBound>(strategy: .onDemand, instance: captured)
      // The task alone holds the injection, and the injection's published layer the instance.
      return taskOnThePool(reading: [injection])
    }
    let endedOnTheMainActor = await escaped.value
    #expect(!endedOnTheMainActor, "the escaped task ends on the pool, off the main actor")
    try await eventually { deinits.names.count == 1 }
    #expect(deinits.names == ["captured"])
    #expect(deinits.offTheMainActor.isEmpty, "released off the main actor: \(deinits.offTheMainActor)")
  }
}

/// A nonisolated task, so that it runs and ends on the thread pool, that reads `injections` on
/// the main actor, suspends, and returns whether it ended on the main actor.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private func taskOnThePool(reading injections: [Injection<MainActorBound>]) -> Task<Bool, Never> {
  Task {
    await MainActor.run {
      for injection in injections { _ = Consumer(injection).service }
    }
    try? await Task.sleep(for: .milliseconds(1))
    return isOnTheMainQueue()
  }
}

/// An instance whose `deinit` notes whether it runs on the main actor, as a `deinit` that
/// assumes it would check.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class MainActorBound: Sendable {
  let name: String
  let log: DeinitLog
  init(_ name: String, _ log: DeinitLog) {
    self.name = name
    self.log = log
  }
  deinit { log.note(name, onTheMainActor: isOnTheMainQueue()) }
}

/// The names of the instances deinitialized, from any thread.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class DeinitLog: Sendable {
  private let log = Mutex<[(String, Bool)]>([])
  func note(_ name: String, onTheMainActor: Bool) { log.withLock { $0.append((name, onTheMainActor)) } }
  var names: [String] { log.withLock { $0.map(\.0) } }
  var offTheMainActor: [String] { log.withLock { $0.filter { !$0.1 }.map(\.0) } }
}

/// Whether the caller runs on the main queue, where the main actor runs its jobs (on Linux,
/// not always on the main thread).
private func isOnTheMainQueue() -> Bool {
  DispatchQueue.getSpecific(key: MainQueue.key) == true
}

private enum MainQueue {
  static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()
}

/// Suspends each waiting task until it is opened.
@MainActor
final class Gate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    guard !isOpen else { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters.removeAll()
  }
}

/// Waits, up to a second, until `condition` holds: what a world releases from the thread pool,
/// it releases in a main-actor task.
func eventually(_ condition: @MainActor () -> Bool) async throws {
  for _ in 0..<1000 {
    if await MainActor.run(body: condition) { return }
    try await Task.sleep(for: .milliseconds(1))
  }
}
