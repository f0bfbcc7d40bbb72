import Dispatch
import Foundation
import Inject
import InjectTesting
import TestSupport
import Testing

/// A client, and the repository that holds the one it was built with.
private final class KindClient: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class KindRepository: Sendable {
  let client: KindClient
  init(_ client: KindClient) { self.client = client }
}

/// Which kind of injection publishes the dependent, and which the client it is built with: a
/// sendable factory cannot resolve a main-actor injection, so three pairs.
enum KindPair: String, CaseIterable, Sendable {
  case mainActorOnMainActor, mainActorOnSendable, sendableOnSendable
}

/// An injection of either kind, driven from the main actor.
@MainActor private struct EitherInjection<T: Sendable> {
  let resolve: () -> T
  let push: (T) -> Void
  let rollback: () -> Void
  /// For a sendable injection, its resolution from any isolation.
  let resolveAnywhere: (@Sendable () -> T)?
  /// For a sendable injection, its rollback from any isolation.
  let rollbackAnywhere: (@Sendable () -> Void)?

  init(_ injection: Injection<T>) {
    (resolve, push, rollback) = (
      { injection.resolve() }, { injection.override(with: $0) }, { injection.rollbackOverride() }
    )
    (resolveAnywhere, rollbackAnywhere) = (nil, nil)
  }

  init(_ injection: SendableInjection<T>) {
    (resolve, push, rollback) = (
      { injection.resolve() }, { injection.override(with: $0) }, { injection.rollbackOverride() }
    )
    (resolveAnywhere, rollbackAnywhere) = ({ injection.resolve() }, { injection.rollbackOverride() })
  }
}

/// The rules that both kinds of injection keep, tested for each kind, and for each pair of kinds
/// where one injection is built with another: one engine serves both, and these tests keep it so.
@Suite @MainActor struct BothKindsTests {
  /// A rollback made while a dependent builds (here by its own factory, as another thread's
  /// would) leaves what the build made to its consumer, and stores it for no other.
  @Test(arguments: KindPair.allCases) func aBuildThatARollbackOverlapsIsNotStored(pair: KindPair) {
    withIsolatedInjections {
      let client =
        pair == .mainActorOnMainActor
        ? EitherInjection(Injection<KindClient>(strategy: .singleton, instance: KindClient("live")))
        : EitherInjection(SendableInjection<KindClient>(strategy: .singleton, instance: KindClient("live")))
      client.push(KindClient("mock"))
      // The first build rolls the override back; the builds after it find none to roll back.
      let builds = Counter()
      let repository: EitherInjection<KindRepository>
      switch pair {
      case .mainActorOnMainActor, .mainActorOnSendable:
        repository = EitherInjection(
          Injection<KindRepository>(
            strategy: .singleton,
            instance: {
              let repository = KindRepository(client.resolve())
              builds.increment()
              if builds.value == 1 {
                client.rollback()
              }
              return repository
            }()))
      case .sendableOnSendable:
        let (resolve, rollback) = (client.resolveAnywhere!, client.rollbackAnywhere!)
        repository = EitherInjection(
          SendableInjection<KindRepository>(
            strategy: .singleton,
            instance: {
              let repository = KindRepository(resolve())
              builds.increment()
              if builds.value == 1 {
                rollback()
              }
              return repository
            }()))
      }
      #expect(repository.resolve().client.name == "mock")
      #expect(repository.resolve().client.name == "live")
      #expect(repository.resolve() === repository.resolve())
    }
  }

  /// Releasing an injection with overrides still pushed (a test that forgot its rollback) takes
  /// them with it and rolls nothing back.
  ///
  /// Their values are released, what other injections of either kind stored while they were in
  /// place keeps its identity, and the log stops counting them. In a process of its own, where no
  /// other test's global rollback drops what this one stored.
  @Test(.timeLimit(.minutes(4))) func aReleasedInjectionRollsNothingBack() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run {
        for sendable in [false, true] {
          let other = SendableInjection<KindClient>(strategy: .singleton, instance: KindClient("other"))
          let mainActorOther = Injection<KindClient>(strategy: .singleton, instance: KindClient("other"))
          weak var mock: KindClient?
          let storedMeanwhile: (KindClient, KindClient)
          do {
            let client =
              sendable
              ? EitherInjection(SendableInjection<KindClient>(strategy: .singleton, instance: KindClient("live")))
              : EitherInjection(Injection<KindClient>(strategy: .singleton, instance: KindClient("live")))
            let pushed = KindClient("mock")
            mock = pushed
            client.push(pushed)
            precondition(client.resolve() === pushed)
            storedMeanwhile = (other.resolve(), mainActorOther.resolve())
            precondition(globalRollbackLogCount() > 0, "the log lists what was stored while pushed")
          }
          precondition(mock == nil, "the released injection's override went with it")
          precondition(other.resolve() === storedMeanwhile.0, "a release rolls nothing back")
          precondition(mainActorOther.resolve() === storedMeanwhile.1, "a release rolls nothing back")
          precondition(globalRollbackLogCount() == 0, "no override left: the log lists nothing")
        }
      }
    }
  }

  /// A chain of 5,000 sendable injections, each overridden with the next, resolves and is
  /// released in constant stack, on a thread with a 256 KB stack, in a test world opened there.
  ///
  /// Nonisolated: nothing here is the main actor's, and the wait for the thread held it, and
  /// every main-actor test behind it, for as long as the chain took (a second or more).
  @Test(.timeLimit(.minutes(4))) nonisolated func aLongDelegationChainResolvesAndIsReleasedOnASmallStack() {
    let done = DispatchSemaphore(value: 0)
    let resolved = Locked<Int?>(nil)
    let thread = Thread {
      // In a test world of the thread's own: the chain's overrides stay on the test's stack.
      withIsolatedInjections {
        let chain = (0..<5_000).map { SendableInjection<Int>(strategy: .singleton, instance: $0) }
        for (injection, next) in zip(chain, chain.dropFirst()) {
          injection.override(with: next)
        }
        resolved.withLock { $0 = chain[0].resolve() }
      }
      done.signal()
    }
    thread.stackSize = 256 * 1024
    thread.start()
    wait(for: done)
    #expect(resolved.withLock { $0 } == 4_999)
  }

  /// A chain of 5,000 sendable injections, each overridden globally with the next and held only
  /// by the one before it, is released in constant stack, on a thread with a 256 KB stack: each
  /// release hands what it lets go of to the thread's flat release.
  ///
  /// 5,000 at full scale (`INJECT_STRESS=1`, as in the release run, whose frames are smaller);
  /// 2,000 otherwise: with `FlatRelease` releasing at once, this debug build overflowed the
  /// 256 KB stack with chains of 200, 500, 1,000, 2,000 and 5,000 alike.
  ///
  /// A child process: its global pushes would list what the tests beside it store.
  @Test(.timeLimit(.minutes(4))) func aLongSendableChainHeldOnlyByItsHeadIsReleasedOnASmallStack() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        weak var weakLast: SendableInjection<Int>?
        do {
          let length = StressScale.count(full: 5_000, quick: 2_000)
          var chain = (0..<length).map { SendableInjection<Int>(strategy: .singleton, instance: $0) }
          withDebugWarningsSilenced {
            for (injection, next) in zip(chain, chain.dropFirst()) {
              injection.override(with: next)
            }
          }
          let head = chain[0]
          weakLast = chain[chain.count - 1]
          chain = []
          precondition(head.resolve() == length - 1)
          precondition(weakLast != nil, "the chain holds its last injection")
        }
        precondition(weakLast == nil, "released with the head")
        done.signal()
      }
      thread.stackSize = 256 * 1024
      thread.start()
      done.wait()
    }
  }

  /// Threads pushing and rolling back a sendable override never drop a main-actor `.singleton`
  /// stored before any of their pushes, while a main-actor override is in place (so the
  /// singleton is listed), whichever order their hops to the main actor run in.
  ///
  /// A child process: the rollbacks of the tests beside it would drop the singleton too, rightly.
  @Test(.timeLimit(.minutes(4))) func sendableRollbacksOnManyThreadsDropNoMainActorInstanceStoredBefore() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      // The pushes on the global stack of a test process are on purpose: their warning is
      // DebugWarningsTests'.
      let first = await MainActor.run {
        withDebugWarningsSilenced { raceGuard.override(with: 1) }
        let first = raceSingleton.resolve()
        precondition(first.client.name == "live")
        onThreads(8) { _ in
          withDebugWarningsSilenced {
            for _ in 0..<300 {
              raceClient.override(with: KindClient("mock"))
              raceClient.rollbackOverride()
            }
          }
        }
        precondition(raceSingleton.resolve() === first, "dropped before the hops ran")
        return first
      }
      // The drops that the threads' rollbacks left pending are made once one more is: that of a
      // canary, stored while a sendable override was in place, whose rollback here leaves it
      // to a hop to the main actor (or makes it at once, there). Each empties every drop
      // pending, those left before included; a sleep only hoped that the hops had run.
      weak let canary = await MainActor.run {
        withDebugWarningsSilenced { raceClient.override(with: KindClient("mock")) }
        return raceCanary.resolve()
      }
      withDebugWarningsSilenced { raceClient.rollbackOverride() }
      let deadline = ContinuousClock.now + .seconds(60)
      while canary != nil {
        precondition(ContinuousClock.now < deadline, "the canary's drop never ran")
        try? await Task.sleep(for: .milliseconds(1))
      }
      await MainActor.run {
        precondition(raceSingleton.resolve() === first, "dropped by the hops")
      }
    }
  }
  /// A main-actor `.singleton` built with a sendable client never gets an override of the client
  /// whose rollback on another thread had returned, while two more threads push and roll back
  /// unrelated sendable overrides: each rollback makes its main-actor drops pending before it
  /// returns (a rollback that found them taken off the log by another returned before they were,
  /// and the main actor read the slot first: thousands of stale reads in three seconds).
  ///
  /// A child process, for the global overrides; three seconds of the race.
  @Test(.timeLimit(.minutes(4))) func concurrentRollbacksLeaveNoMainActorDependentOfARolledBackOverride() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let rolledBack = Locked(0)
      let isRacing = Locked(true)
      let finished = DispatchGroup()
      func race(_ body: @escaping @Sendable () -> Void) {
        finished.enter()
        Thread {
          withDebugWarningsSilenced {
            while isRacing.withLock({ $0 }) {
              body()
            }
          }
          finished.leave()
        }.start()
      }
      let tags = Locked(0)
      race {
        let tag = tags.withLock { tag in
          tag += 1
          return tag
        }
        taggedClient.override(with: KindClient(String(tag)))
        usleep(20)
        taggedClient.rollbackOverride()
        rolledBack.withLock { $0 = tag }
      }
      for unrelated in unrelatedClients {
        race {
          unrelated.override(with: KindClient("mock"))
          _ = unrelated.resolve()
          unrelated.rollbackOverride()
        }
      }
      let stale = await MainActor.run {
        withDebugWarningsSilenced {
          rebuildGuard.override(with: 0)
          var (stale, reads) = (0, 0)
          let end = ContinuousClock.now + .seconds(3)
          while ContinuousClock.now < end {
            let rolledBackTag = rolledBack.withLock { $0 }
            let tag = Int(taggedModel.resolve().client.name) ?? 0
            if tag != 0 && tag <= rolledBackTag {
              stale += 1
            }
            reads += 1
            if reads % 20 == 0 {
              // Drops the model, which the next read builds again.
              rebuildGuard.rollbackOverride()
              rebuildGuard.override(with: reads)
            }
          }
          return stale
        }
      }
      isRacing.withLock { $0 = false }
      finished.wait()
      precondition(stale == 0, "\(stale) reads got a model built with an override already rolled back")
    }
  }
}

// The child process's injections.
@MainActor private let raceGuard = Injection<Int>(strategy: .singleton, instance: 0)
private let raceClient = SendableInjection<KindClient>(strategy: .singleton, instance: KindClient("live"))
@MainActor private let raceSingleton = Injection<KindRepository>(
  strategy: .singleton, instance: KindRepository(raceClient.resolve()))
/// A main-actor `.singleton` whose drop by a hop shows that the hops enqueued before it ran.
@MainActor private let raceCanary = Injection<KindClient>(strategy: .singleton, instance: KindClient("canary"))

/// A client named by the override that built it ("live": the published one), and a main-actor
/// dependent built with it.
private let taggedClient = SendableInjection<KindClient>(strategy: .singleton, instance: KindClient("live"))
@MainActor private let taggedModel = Injection<KindRepository>(
  strategy: .singleton, instance: KindRepository(taggedClient.resolve()))
@MainActor private let rebuildGuard = Injection<Int>(strategy: .singleton, instance: 0)
private let unrelatedClients = (0..<2).map { _ in
  SendableInjection<KindClient>(strategy: .singleton, instance: KindClient("live"))
}
