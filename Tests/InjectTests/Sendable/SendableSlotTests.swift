import Dispatch
import Foundation
import Inject
import Testing

/// The slot of a sendable injection: one build however many threads ask at once, and a wait for
/// that build alone.
@Suite struct SendableSlotTests {
  @Test(.timeLimit(.minutes(4))) func aSingletonFirstResolvedBySixtyFourThreadsAtOnceIsBuiltOnce() {
    let slot = SendableSlot<Built>()
    let injection = Named("Singleton")
    let calls = Counter()
    let seen = Locked<Set<ObjectIdentifier>>([])
    onThreads(64) { _ in
      let instance = slot.instance(of: injection, strategy: .singleton) {
        calls.increment()
        // Long enough for the other threads to arrive and wait.
        usleep(20_000)
        return Built()
      }
      seen.withLock { _ = $0.insert(ObjectIdentifier(instance)) }
    }
    #expect(calls.value == 1)
    #expect(seen.withLock { $0.count } == 1)
  }

  @Test func aSingletonIsKeptAndASharedObjectIsReleasedAfterItsLastHolder() {
    let singleton = SendableSlot<Built>()
    let shared = SendableSlot<Built>()
    let injection = Named("Slot")
    weak var weakSingleton: Built?
    weak var weakShared: Built?
    do {
      let first = singleton.instance(of: injection, strategy: .singleton) { Built(1) }
      let again = singleton.instance(of: injection, strategy: .singleton) { Built(2) }
      #expect(first === again)
      weakSingleton = first
      let sharedFirst = shared.instance(of: injection, strategy: .shared) { Built(1) }
      let sharedAgain = shared.instance(of: injection, strategy: .shared) { Built(2) }
      #expect(sharedFirst === sharedAgain)
      weakShared = sharedFirst
    }
    #expect(weakSingleton != nil)
    #expect(weakShared == nil)
    #expect(!shared.holdsInstance)
    let rebuilt = shared.instance(of: injection, strategy: .shared) { Built(3) }
    #expect(rebuilt.id == 3)
  }

  @Test func aSharedValueThatCannotBeHeldWeaklyIsKept() {
    let slot = SendableSlot<Int>()
    let calls = Counter()
    for _ in 0..<3 {
      #expect(
        slot.instance(of: Named("Value"), strategy: .shared) {
          calls.increment()
          return 7
        } == 7)
    }
    #expect(calls.value == 1)
  }

  @Test func emptyingForgetsTheInstanceAndTheNextResolutionBuildsAnew() {
    let slot = SendableSlot<Built>()
    let injection = Named("Slot")
    let first = slot.instance(of: injection, strategy: .singleton) { Built(1) }
    let emptied = slot.empty()
    #expect(emptied as? Built === first)
    #expect(slot.instance(of: injection, strategy: .singleton) { Built(2) }.id == 2)
  }

  /// Released on one thread while others resolve it: each resolution gets an instance still
  /// alive, taken or rebuilt; each build reaches the resolution that made it, and none is in
  /// vain; and every instance is gone at the end.
  @Test(.timeLimit(.minutes(4))) func aSharedInstanceReleasedWhileOthersResolveItIsTakenAliveOrRebuilt() {
    let slot = SendableSlot<Built>()
    let injection = Named("Shared")
    let live = LiveObjects()
    let builds = Counter()
    let released = Counter()
    let resolved = Locked<Set<Int>>([])
    let iterations = StressScale.count(full: 100_000, quick: 5_000)
    onThreads(16) { thread in
      for iteration in 0..<iterations {
        let instance = slot.instance(of: injection, strategy: .shared) {
          builds.increment()
          return Built(thread * iterations + iteration, live: live)
        }
        if !live.contains(instance) {
          released.increment()
        }
        resolved.withLock { _ = $0.insert(instance.id) }
      }
    }
    #expect(released.value == 0, "resolutions got an instance whose deinit had run")
    #expect(resolved.withLock(\.count) == builds.value, "every build went to a resolution")
    #expect(!slot.holdsInstance)
    #expect(live.count == 0)
  }

  /// A factory that takes long blocks its own slot only: another thread builds and reads
  /// another slot meanwhile, which a global lock held during builds would deadlock.
  @Test(.timeLimit(.minutes(4))) func aLongBuildBlocksNoOtherSlot() {
    let slow = SendableSlot<Built>()
    let fast = SendableSlot<Built>()
    let fastResolved = DispatchSemaphore(value: 0)
    let slowStarted = DispatchSemaphore(value: 0)
    onThreads(2) { thread in
      if thread == 0 {
        _ = slow.instance(of: Named("Slow"), strategy: .singleton) {
          slowStarted.signal()
          fastResolved.wait()
          return Built()
        }
      } else {
        slowStarted.wait()
        _ = fast.instance(of: Named("Fast"), strategy: .singleton) { Built() }
        fastResolved.signal()
      }
    }
    #expect(slow.holdsInstance && fast.holdsInstance)
  }

  /// Sixteen threads each resolve a singleton whose factory resolves three others, which
  /// resolve nothing: no deadlock, one build each.
  @Test(.timeLimit(.minutes(4))) func aFactoryThatResolvesThreeOthersFromSixteenThreadsDoesNotDeadlock() {
    let leaves = (0..<3).map { _ in SendableSlot<Built>() }
    let root = SendableSlot<[Built]>()
    let calls = Counter()
    let results = Locked<[[ObjectIdentifier]]>([])
    onThreads(16) { _ in
      let built = root.instance(of: Named("Root"), strategy: .singleton) {
        calls.increment()
        return leaves.enumerated().map { index, leaf in
          leaf.instance(of: Named("Leaf \(index)"), strategy: .singleton) {
            calls.increment()
            usleep(5_000)
            return Built(index)
          }
        }
      }
      results.withLock { $0.append(built.map(ObjectIdentifier.init)) }
    }
    #expect(calls.value == 4)
    #expect(Set(results.withLock { $0 }).count == 1)
  }
}
