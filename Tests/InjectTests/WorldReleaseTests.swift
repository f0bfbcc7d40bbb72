import Dispatch
import Foundation
import Inject
import TestSupport
import Testing

/// A sendable instance.
private final class SendableLeaf: Sendable {
  init() {}

  /// Made after `delay`, spent spinning, as a slow factory would.
  init(after delay: Duration) {
    let start = ContinuousClock.now
    while ContinuousClock.now - start < delay {}
  }
}

/// Which injection a dependent's factory resolves, set by a test.
@MainActor private final class Source {
  var injection: Injection<Leaf>?
}

/// Worlds let go of what they no longer need: a world keeps the overrides of the worlds around
/// it, never those worlds or their instances, and forgets what a popped global layer built.
@Suite @MainActor struct WorldReleaseTests {
  @Test(.timeLimit(.minutes(4))) func aFinishedScopesInstancesAreReleasedWhileAWorldNestedInItLivesOn() async {
    let graph = Graph()
    let gate = Gate()
    weak var weakRepository: Repository?
    let nestedTask = withIsolatedInjections {
      weakRepository = Screen(graph).repository
      #expect(weakRepository != nil, "the outer world keeps its .singleton while its scope runs")
      return graph.api.withOverride(MockAPI("nested")) {
        Task { @MainActor in
          await gate.wait()
          return Screen(graph).repository
        }
      }
    }
    #expect(weakRepository == nil, "the outer scope has ended and no task inherited its world")
    gate.open()
    let nested = await nestedTask.value
    #expect(nested.api.name == "nested", "the nested world still sees the override it was opened with")
    #expect(graph.builds.repository == 2)
  }

  /// Each world that resolves a published layer notes where its slot is, for the layer's
  /// rollback; the notes of released worlds go, so that memory stays flat however many worlds
  /// a process opens.
  ///
  /// 5,000 worlds: an index that keeps the notes of released worlds under a layer that lives on
  /// lists two per world, 10,000, five times the bound.
  @Test func theNotesOfReleasedWorldsGo() {
    let mainActor = Injection<Leaf>(strategy: .singleton, instance: Leaf())
    let sendable = SendableInjection<SendableLeaf>(strategy: .singleton, instance: SendableLeaf())
    for _ in 0..<5_000 {
      withIsolatedInjections {
        _ = mainActor.resolve()
        _ = sendable.resolve()
      }
    }
    // Twice the notes of the worlds alive at most: those of the tests running beside this one.
    #expect(worldHolderCount() < 2_000)
  }

  /// What a long-lived injection's builds resolved is remembered for the graph without keeping
  /// it: an injection made and released in a test leaves nothing behind, not even what its
  /// factory captured.
  @Test func aLongLivedInjectionKeepsNoInjectionItsBuildsResolved() {
    let source = Source()
    let dependent = Injection<Holder>(strategy: .onDemand, instance: Holder(source.injection!.resolve()))
    weak var injection: Injection<Leaf>?
    weak var captured: Leaf?
    do {
      let capture = Leaf()
      captured = capture
      let resolved = Injection<Leaf>(
        strategy: .singleton,
        instance: {
          _ = capture
          return Leaf()
        }())
      injection = resolved
      source.injection = resolved
      _ = withIsolatedInjections { dependent.resolve() }
      source.injection = nil
    }
    #expect(injection == nil)
    #expect(captured == nil, "what the released injection's factory captured goes with it")
  }

  @Test func aNestedWorldStillSeesEveryEnclosingOverrideAndTestSetting() {
    let graph = Graph()
    let test = Injection<any API>(strategy: .singleton, instance: LiveAPI(), test: MockAPI("test value"))
    graph.api.withOverride(MockAPI("outer")) {
      withIsolatedInjections {
        graph.session.withOverride(Session(api: MockAPI("session"))) {
          #expect(Screen(graph).repository.api.name == "session")
          #expect(Consumer(graph.api).service.name == "outer")
          #expect(Consumer(test).service.name == "test value", "a world inside a test world is a test world")
        }
      }
    }
  }

  /// Work that handles each message in a scope and schedules the next one in a task created
  /// there: each hop's world is released once the next hop's task no longer needs it.
  ///
  /// 2,000 hops, counted every 500: a hop's world that outlives the next hop's, as a chain of
  /// worlds each kept by the task created in it would, leaves hundreds alive at the first count.
  @Test(.timeLimit(.minutes(4))) func scopePerMessageHopsKeepOnlyTheLastWorldsAlive() async {
    let graph = Graph()
    let hops = Hops(graph: graph)
    await withCheckedContinuation { done in
      hops.handle(remaining: 2_000, then: done)
    }
    #expect(hops.handled == 2_001)
    #expect(hops.mostRepositoriesAlive <= 3, "only the current hop's world and the one its task inherited")
    #expect(graph.builds.repository == 2_001, "each hop's world builds its own repository")
  }

  /// 1,000 overrides pushed, resolved and popped after the first: a world that keeps the slot
  /// of any popped layer fails the count of none, whether it keeps one or all.
  @Test func aGlobalOverridePoppedInsideALongLivedWorldIsReleasedWithWhatItBuilt() {
    let (injection, _) = makeInjection(.singleton)
    withIsolatedInjections {
      weak var weakMock: (any Service)?
      weak var weakBuilt: (any Service)?
      do {
        let mock = ServiceImplementation("mock")
        weakMock = mock
        injection.override(with: mock)
        weakBuilt = Consumer(injection).service
        #expect(weakBuilt === mock)
        injection.rollbackOverride()
      }
      #expect(weakMock == nil, "the popped layer and the instance the world stored for it are released")
      #expect(weakBuilt == nil)
      for index in 0..<1_000 {
        injection.override(with: ServiceImplementation("mock #\(index)"))
        _ = Consumer(injection).service
        injection.rollbackOverride()
      }
      #expect(slotCountInCurrentWorld() == 0, "no slot is left for a popped layer")
      _ = Consumer(injection).service
      #expect(slotCountInCurrentWorld() == 1)
    }
  }

  /// A global override popped while other threads resolve it in a scope's world.
  ///
  /// A resolution that read the stack before the pop made its slot, or listed what it built,
  /// after the pop had emptied the world: without the pop's mark, 20,000 cycles left dozens to
  /// hundreds of slots, and their instances, until the world ended. In a process of its own: a
  /// global pop empties every slot of the global world stored since its push, so 20,000 of them
  /// would take instances from the tests beside it.
  @Test(.timeLimit(.minutes(4)))
  nonisolated func aGlobalOverridePoppedWhileAnotherThreadResolvesItInAScopeLeavesNoSlot()
    async
  {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let injection = SendableInjection<SendableLeaf>(strategy: .singleton, instance: SendableLeaf())
      let scoped = SendableInjection<SendableLeaf>(strategy: .onDemand, instance: SendableLeaf())
      await scoped.withOverride(SendableLeaf()) {
        resolvingOnTwoThreads(in: .current, { _ = injection.resolve() }) {
          // Global overrides in a test process, shadowing what the readers resolved: on purpose.
          withDebugWarningsSilenced {
            for _ in 0..<20_000 {
              // A build that takes a while: a pop comes while it builds, too.
              injection.override(with: SendableLeaf(after: .microseconds(20)))
              injection.rollbackOverride()
            }
          }
        }
        let (slots, stored) = await MainActor.run { (slotCountInCurrentWorld(), storedSlotCountInCurrentWorld()) }
        precondition(slots == 1, "the published layer's slot alone, not \(String(describing: slots))")
        precondition(stored == 1, "the published layer's listed alone, not \(String(describing: stored))")
      }
    }
  }

  @Test func aReleasedInjectionLeavesNothingInAWorldThatLivesOn() {
    withIsolatedInjections {
      weak var weakInstance: (any Service)?
      do {
        let (injection, _) = makeInjection(.singleton)
        weakInstance = Consumer(injection).service
        #expect(weakInstance != nil)
      }
      #expect(weakInstance == nil, "the world forgot the slot of the released injection's layer")
      #expect(slotCountInCurrentWorld() == 0)
    }
  }

  /// Short-lived injections resolved one after another in one world each get their own
  /// instance, however often a new one takes the memory of a released one: the world's part,
  /// which finds its last resolution's layer again by the injection, never hands it to another.
  @Test func injectionsReleasedAndMadeAgainInOneWorldEachGetTheirOwnInstance() {
    withIsolatedInjections {
      for index in 0..<1_000 {
        let injection = Injection<Int>(strategy: .singleton, instance: index)
        #expect(injection.resolve() == index)
        #expect(injection.resolve() == index)
      }
    }
  }

  /// A world that resolved an injection last keeps nothing of it once the injection is
  /// released: not its instance, not what its factory captured (the world's part holds the
  /// engine of its last resolution, for the next one, only while the injection's slot is there).
  @Test func aWorldLetsGoOfTheInjectionItResolvedLastWhenTheInjectionIsReleased() {
    withIsolatedInjections {
      weak var weakInstance: Leaf?
      weak var weakCaptured: Leaf?
      do {
        let captured = Leaf()
        let injection = Injection<Leaf>(
          strategy: .singleton,
          instance: {
            _ = captured
            return Leaf()
          }())
        weakInstance = injection.resolve()
        #expect(injection.resolve() === weakInstance, "the second read takes the slot the first found")
        weakCaptured = captured
      }
      #expect(weakInstance == nil)
      #expect(weakCaptured == nil, "the world's part let go of the released injection's engine")
      #expect(slotCountInCurrentWorld() == 0)
    }
  }

  @Test func aDecoratorInANestedScopeDecoratesWhatTheEnclosingScopeOverrodeItWith() {
    let (injection, _) = makeInjection(.onDemand)
    injection.withOverride(ServiceImplementation("outer")) {
      withIsolatedInjections {
        injection.withOverride({ ServiceImplementation("decorated(\($0.name))") }) {
          #expect(Consumer(injection).service.name == "decorated(outer)")
        }
      }
    }
  }

  @Test(.timeLimit(.minutes(4))) func repeatedScopesOfTheSameInjectionKeepOneOverrideEach() {
    let (injection, _) = makeInjection(.singleton)
    func nest(_ depth: Int) -> String {
      guard depth > 0 else { return Consumer(injection).service.name }
      return injection.withOverride(ServiceImplementation("depth \(depth)")) { nest(depth - 1) }
    }
    #expect(nest(1_000) == "depth 1")
  }
}

/// One hop of ``WorldReleaseTests/scopePerMessageHopsKeepOnlyTheLastWorldsAlive()``'s work.
@MainActor
private final class Hops {
  let graph: Graph
  var handled = 0
  var repositories: [Weak<Repository>] = []
  var mostRepositoriesAlive = 0

  init(graph: Graph) { self.graph = graph }

  /// Handles one message in a scope of its own, and the next in a task created there.
  func handle(remaining: Int, then done: CheckedContinuation<Void, Never>) {
    graph.api.withOverride(MockAPI("message \(remaining)")) {
      handled += 1
      repositories.append(Weak(Screen(graph).repository))
      if remaining.isMultiple(of: 500) || remaining == 0 {
        repositories.removeAll { $0.object == nil }
        mostRepositoriesAlive = max(mostRepositoriesAlive, repositories.count)
      }
      guard remaining > 0 else { return done.resume() }
      Task { @MainActor in self.handle(remaining: remaining - 1, then: done) }
    }
  }
}

/// An object held weakly.
private struct Weak<Object: AnyObject> {
  weak var object: Object?
  init(_ object: Object) { self.object = object }
}
