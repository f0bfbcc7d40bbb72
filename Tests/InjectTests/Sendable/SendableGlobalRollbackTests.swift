import Dispatch
import Foundation
import Inject
import TestSupport
import Testing

private final class GlobalClient: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private let globalClient = SendableInjection<GlobalClient>(strategy: .singleton, instance: GlobalClient("live"))

@MainActor private final class GlobalViewModel {
  let client: GlobalClient
  init(_ client: GlobalClient) { self.client = client }
}

private let globalViewModel = Injection<GlobalViewModel>(
  strategy: .singleton, instance: GlobalViewModel(globalClient.resolve()))

@MainActor private final class GlobalScreen {
  @Instance(globalViewModel) var viewModel
}

/// Global overrides of a sendable injection, with a main-actor dependent, in the global world.
///
/// Each test runs in a child process: a global rollback drops what every injection stored since
/// its push, which would rebuild what other tests in this process stored meanwhile.
@Suite struct SendableGlobalRollbackTests {
  @Test(.timeLimit(.minutes(4))) func aMainActorDependentOfAGlobalSendableOverrideIsRebuiltAfterTheRollback() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run {
        globalClient.override(with: GlobalClient("mock"))
        let during = GlobalScreen().viewModel
        precondition(during.client.name == "mock")
        globalClient.rollbackOverride()
        let after = GlobalScreen().viewModel
        precondition(after !== during && after.client.name == "live")
        precondition(GlobalScreen().viewModel === after)
      }
    }
  }

  @Test(.timeLimit(.minutes(4))) func aRollbackOffTheMainActorReachesTheMainActorBeforeItsNextJob() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      globalClient.override(with: GlobalClient("mock"))
      let during = await MainActor.run { GlobalScreen().viewModel }
      precondition(during.client.name == "mock")
      await Task.detached { globalClient.rollbackOverride() }.value
      let after = await MainActor.run { GlobalScreen().viewModel }
      precondition(after !== during && after.client.name == "live")
    }
  }

  /// A thread that waited for another's build of an override builds it again if a rollback
  /// popped it meanwhile (the first build's store is refused): what it builds goes to it alone,
  /// and leaves with the popped override, listed by no world.
  ///
  /// The wait is seen through its report (after 50 ms), so that the rollback surely comes while
  /// the second thread waits, having read the stack with the override in place.
  @Test(.timeLimit(.minutes(4)))
  func whatAThreadBuildsForAnOverridePoppedWhileItWaitedLeavesWithTheOverride() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      WaitGraph.reportAfter = 0.05
      let waitReported = Locked(false)
      await MainActor.run { installTelemetry(FlaggingWaits(reported: waitReported)) }
      let injection = SendableInjection<GlobalClient>(strategy: .singleton, instance: GlobalClient("live"))
      let (firstBuildStarted, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
      let builds = Locked(0)
      withDebugWarningsSilenced {
        injection.override(
          with: {
            let build = builds.withLock { builds in
              builds += 1
              return builds
            }
            if build == 1 {
              firstBuildStarted.signal()
              release.wait()
            }
            return GlobalClient("mock \(build)")
          }())
      }
      let (threads, second) = (DispatchGroup(), Locked(WeakClient()))
      threads.enter()
      Thread {
        precondition(injection.resolve().name == "mock 1")
        threads.leave()
      }.start()
      firstBuildStarted.wait()
      threads.enter()
      Thread {
        let client = injection.resolve()
        precondition(client.name == "mock 2", client.name)
        second.withLock { $0.client = client }
        threads.leave()
      }.start()
      while !waitReported.withLock({ $0 }) {
        try? await Task.sleep(for: .milliseconds(10))
      }
      injection.rollbackOverride()
      release.signal()
      threads.wait()
      precondition(builds.withLock { $0 } == 2)
      precondition(second.withLock { $0.client } == nil, "the popped override's instance is kept")
      precondition(injection.resolve().name == "live")
    }
  }
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

/// A client, held weakly.
private struct WeakClient: Sendable {
  weak var client: GlobalClient?
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sendable injection's launch overrides, in a child process launched with the environment
/// variable set (the child sets it before the injection is created, as a launch would).
@Suite struct SendableLaunchOverrideTests {
  @Test(.timeLimit(.minutes(4))) func theFirstLaunchOverrideThatAppliesReplacesThePublishedInstance() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      setenv("INJECT_SENDABLE_LAUNCH_PROBE", "1", 1)
      let injection = SendableInjection<GlobalClient>(
        strategy: .singleton, instance: GlobalClient("live"),
        launchOverrides: [
          .argument("-inject-sendable-launch-probe", with: GlobalClient("argument")),
          .environment("INJECT_SENDABLE_LAUNCH_PROBE", with: GlobalClient("environment")),
        ])
      precondition(injection.resolve().name == "environment")
      injection.override(with: GlobalClient("override"))
      precondition(injection.resolve().name == "override")
    }
  }

  @Test func aLaunchOverrideThatDoesNotApplyChangesNothing() {
    let injection = SendableInjection<GlobalClient>(
      strategy: .singleton, instance: GlobalClient("live"),
      launchOverrides: [.environment("INJECT_SENDABLE_LAUNCH_PROBE_UNSET", with: GlobalClient("environment"))])
    #expect(injection.resolve().name == "live")
  }
}
