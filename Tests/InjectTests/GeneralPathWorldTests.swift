import Foundation
import Inject
import TestSupport
import Testing

/// Which world the main actor's general path resolves a consumer in, when the consumer was made
/// outside every world and reads inside one: the path reads the current task's world only
/// while a world is alive, and a world made on another thread counts itself there before any
/// code of the world's can run on the main actor.
///
/// Each test runs in a child process: the telemetry and the count of worlds alive are the
/// process's, and a world of another test would make the main actor read the task-local anyway.
@Suite struct GeneralPathWorldTests {
  /// With a telemetry installed (the general path, and no world alive until the loop makes
  /// one), a consumer made outside every world and read on the main actor by a task of a test
  /// world made on another thread gets the test value, each of 200 times; read outside after
  /// that world ended, the live one.
  @Test(.timeLimit(.minutes(4))) func aConsumerReadInAWorldMadeOffTheMainActorResolvesThere() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run { installTelemetry(Silent()) }
      for _ in 0..<200 {
        await MainActor.run { Held.consumer = Consumer(Held.injection) }
        let read = await Task.detached {
          // A world made on this thread; its task reads on the main actor.
          withIsolatedInjections { Task { @MainActor in Held.consumer?.service.name } }
        }.value
        let name = await read.value
        precondition(name == "test", "read in a test world, the consumer got \(name ?? "nothing")")
      }
      let outside = await MainActor.run { Consumer(Held.injection).service.name }
      precondition(outside == "live", "read outside every world, a consumer got \(outside)")
    }
  }

  /// The main actor counts a world that began on another thread while it was busy, pending, with
  /// one of its own that begins before it takes the pending ones: after both end, a consumer made
  /// outside every world and read in a main-actor scope resolves there (a count that lost the
  /// pending world, then its end, went below the worlds alive, and sent that read down the fast
  /// path, to the published instance).
  @Test(.timeLimit(.minutes(4))) func aWorldPendingWhileTheMainActorBeginsItsOwnIsCounted() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run {
        let (opened, close, closed) = (
          DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
        )
        Thread.detachNewThread {
          withIsolatedInjections {
            opened.signal()
            close.wait()
          }
          closed.signal()
        }
        // The main actor waits, busy: the other thread's world is pending when its own begins.
        opened.wait()
        Held.scoped.withOverride(ServiceImplementation("scoped")) {
          precondition(Held.scoped.resolve().name == "scoped")
        }
        close.signal()
        closed.wait()
        Held.consumer = Consumer(Held.scoped)
      }
      // The main actor takes the end of the other thread's world.
      await MainActor.run {}
      let name = await MainActor.run {
        Held.scoped.withOverride(ServiceImplementation("scoped")) { Held.consumer?.service.name }
      }
      precondition(name == "scoped", "read in a scope, a consumer made outside got \(name ?? "nothing")")
    }
  }

  /// Worlds made and ended on another thread while the main actor is busy leave it no job.
  ///
  /// Test worlds, scopes of a sendable injection that resolve in them, test worlds that override
  /// a sendable family, and both inside a world carried from a main-actor scope: memory does not
  /// grow with them. When each world enqueued main-actor tasks to say it began, that it ended,
  /// and to release its configuration and test stacks (those a parent held too), 100,000 grew
  /// memory by about 200 to 300 MB before the main actor could run any of them.
  @Test(
    .timeLimit(.minutes(4)),
    .enabled(
      if: residentMegabytes() != nil && !isUnderSanitizer,
      "resident memory is read on Linux only; a sanitizer's allocator keeps what is freed"))
  func worldsMadeOnAnotherThreadWhileTheMainActorIsBusyLeaveItNoWork() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run {
        let carried = Held.injection.withOverride(ServiceImplementation("scoped")) { InjectionWorld.current }
        let before = residentMegabytes() ?? 0
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          for round in 0..<20_000 {
            withIsolatedInjections {}
            Background.injection.withOverride(Background.Service(round)) {
              precondition(Background.Consumer().service.round == round, "the scope's override was not resolved")
            }
            withIsolatedInjections {
              Background.family.override(with: { Background.Service($0 + round) })
              precondition(Background.family[1].resolve().round == round + 1, "the family's override was not resolved")
            }
            carried.run {
              withIsolatedInjections {}
              Background.injection.withOverride(Background.Service(round)) {}
            }
          }
          done.signal()
        }
        // The main actor waits, busy, while the other thread makes and ends every world.
        done.wait()
        let grown = (residentMegabytes() ?? 0) - before
        precondition(grown < 40, "100,000 worlds made on another thread grew memory by \(grown) MB")
      }
    }
  }

  /// The job that tells a busy main actor of a world that began inside another keeps nothing of
  /// the enclosing world: its instances are released as its scope ends, while the main actor is
  /// still busy (the job held the enclosing world through the task-locals it inherited).
  @Test(.timeLimit(.minutes(4))) func aWorldBegunInsideAnotherOffTheMainActorKeepsItNotAlive() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let released = await Task.detached {
        let (ran, busy, free) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        weak var stored: Background.Service?
        Background.other.withOverride(Background.Service(1)) {
          stored = Background.injection.resolve()
          // The main actor takes what is pending, then stays busy.
          Task.detached { @MainActor in ran.signal() }
          ran.wait()
          Task.detached { @MainActor in
            busy.signal()
            free.wait()
          }
          busy.wait()
          withIsolatedInjections {}
        }
        defer { free.signal() }
        return stored == nil
      }.value
      precondition(released, "the scope's instance outlived its scope while the main actor was busy")
    }
  }
}

/// What the child process keeps on the main actor: made outside every world.
@MainActor
private enum Held {
  static let injection = Injection<any Service>(
    strategy: .onDemand, instance: ServiceImplementation("live"), test: ServiceImplementation("test"))
  static var consumer: Consumer<any Service>?
  static let scoped = Injection<any Service>(strategy: .singleton, instance: ServiceImplementation("live"))
}

/// A telemetry that records nothing: installed, it sends every resolution down the general path.
private struct Silent: InjectionTelemetry {
  func record(_ event: InjectionEvent) {}
}

/// What the child process resolves on another thread.
private enum Background {
  final class Service: Sendable {
    let round: Int
    init(_ round: Int) { self.round = round }
  }

  static let injection = SendableInjection<Service>(strategy: .singleton, instance: Service(-1))
  static let other = SendableInjection<Service>(strategy: .onDemand, instance: Service(-2))
  static let family = SendableInjectionFamily<Int, Service>(strategy: .singleton) { Service($0) }

  struct Consumer {
    @SendableInstance(Background.injection) var service
  }
}
