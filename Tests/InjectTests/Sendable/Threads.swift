import Dispatch
import Foundation
import Inject
import Testing

/// Runs `body` on `count` new threads at once, each given its index, and returns when all have
/// finished: threads of their own, so that a build blocking some of them cannot starve the
/// others, as it could on a cooperative pool as wide as the machine's two cores.
///
/// Bounded: after `seconds`, it records an issue at the caller and returns, leaving the threads
/// that never finished blocked. A test's `.timeLimit` cannot end a thread blocked for ever (a
/// deadlock): it records the failure, then waits for the test's body, which waits here.
func onThreads(
  _ count: Int, within seconds: Double = 180, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable (Int) -> Void
) {
  let start = DispatchSemaphore(value: 0)
  let finished = DispatchGroup()
  for index in 0..<count {
    finished.enter()
    let thread = Thread {
      start.wait()
      body(index)
      finished.leave()
    }
    thread.start()
  }
  for _ in 0..<count {
    start.signal()
  }
  if finished.wait(timeout: .now() + seconds) == .timedOut {
    Issue.record(
      "\(count) threads did not all finish within \(Int(seconds)) seconds: a deadlock?", sourceLocation: sourceLocation)
  }
}

/// Runs `resolve` over and over on two new threads in `world` while `work` runs on the calling
/// thread; returns once `work` has returned and both threads have stopped.
func resolvingOnTwoThreads(
  in world: InjectionWorld, _ resolve: @escaping @Sendable () -> Void, while work: () -> Void
) {
  let (done, readers) = (Locked(false), DispatchGroup())
  for _ in 0..<2 {
    readers.enter()
    Thread {
      world.run {
        while !done.withLock({ $0 }) {
          resolve()
        }
      }
      readers.leave()
    }.start()
  }
  work()
  done.withLock { $0 = true }
  readers.wait()
}

/// Builds that count themselves; the first blocks its thread until ``release`` is signalled.
final class BlockingBuilds: Sendable {
  /// Signalled when the first build starts.
  let started = DispatchSemaphore(value: 0)
  /// Lets the first build finish.
  let release = DispatchSemaphore(value: 0)
  private let builds = Locked(0)

  /// How many builds started.
  var count: Int { builds.withLock { $0 } }

  /// Counts a build and returns its number; the first blocks until released.
  func build() -> Int {
    let build = builds.withLock { builds in
      builds += 1
      return builds
    }
    if build == 1 {
      started.signal()
      release.wait()
    }
    return build
  }
}

/// Runs `resolve` on a thread, whose resolution builds through `builds` and blocks, then on a
/// second thread, which waits for that build; once the second thread's wait is reported (so it
/// has read the configuration, with the override in place), runs `rollback`, then lets the
/// first build finish; returns once both threads have.
///
/// It shortens the report's delay to 50 ms and installs a telemetry: run it in a process of its
/// own.
func rollingBack(
  _ rollback: () -> Void, whileAThreadWaitsForAnothersBuild builds: BlockingBuilds,
  of resolve: @escaping @Sendable () -> Void
) async {
  WaitGraph.reportAfter = 0.05
  let waitReported = Locked(false)
  await MainActor.run { installTelemetry(FlaggingWaits(reported: waitReported)) }
  let threads = DispatchGroup()
  threads.enter()
  Thread {
    resolve()
    threads.leave()
  }.start()
  builds.started.wait()
  threads.enter()
  Thread {
    resolve()
    threads.leave()
  }.start()
  while !waitReported.withLock({ $0 }) {
    try? await Task.sleep(for: .milliseconds(10))
  }
  rollback()
  builds.release.signal()
  threads.wait()
}

/// Sets `reported` when a wait for another thread's build is reported.
private struct FlaggingWaits: InjectionTelemetry {
  let reported: Locked<Bool>

  func record(_ event: InjectionEvent) {
    if case .waitingForBuild = event.kind {
      reported.withLock { $0 = true }
    }
  }
}

/// Waits until `semaphore` is signalled, for `seconds` at most: after them, records an issue at
/// the caller and returns, as ``onThreads(_:within:sourceLocation:_:)`` does.
func wait(
  for semaphore: DispatchSemaphore, within seconds: Double = 180, sourceLocation: SourceLocation = #_sourceLocation
) {
  if semaphore.wait(timeout: .now() + seconds) == .timedOut {
    Issue.record("Not signalled within \(Int(seconds)) seconds: a deadlock?", sourceLocation: sourceLocation)
  }
}

/// A test's stand-in for an injection, named in diagnostics by `label`.
final class Named: BuildIdentity {
  let label: String
  init(_ label: String) { self.label = label }
}

/// A counter that any thread may change.
final class Counter: Sendable {
  private let count = Locked(0)
  func increment() { count.withLock { $0 += 1 } }
  func decrement() { count.withLock { $0 -= 1 } }
  var value: Int { count.withLock { $0 } }
}

/// The objects alive among those that entered: each enters in its initializer and leaves in its
/// `deinit`, so that a test can tell whether an object it was handed had been released.
final class LiveObjects: Sendable {
  private let alive = Locked<Set<ObjectIdentifier>>([])

  func enter(_ object: AnyObject) { alive.withLock { _ = $0.insert(ObjectIdentifier(object)) } }
  func leave(_ object: AnyObject) { alive.withLock { _ = $0.remove(ObjectIdentifier(object)) } }
  /// Whether `object`, which the caller holds, has not been released: its `deinit` has not run.
  func contains(_ object: AnyObject) -> Bool { alive.withLock { $0.contains(ObjectIdentifier(object)) } }
  var count: Int { alive.withLock { $0.count } }
}

/// An object that enters `live`, if given, while it is alive.
final class Built: Sendable {
  let id: Int
  private let live: LiveObjects?
  init(_ id: Int = 0, live: LiveObjects? = nil) {
    self.id = id
    self.live = live
    live?.enter(self)
  }

  deinit { live?.leave(self) }
}
