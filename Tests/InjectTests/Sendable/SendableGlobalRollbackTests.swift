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
