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
  /// A main-actor slot that the log let go of as the last override went (pending, the main actor
  /// busy), which then stored again under a new sendable override, stays guarded: a consumer on
  /// the main actor never gets its instance after that override's rollback on another thread.
  /// (The first override's injection was released, which rolls nothing back: the slot was still
  /// listed as the last override went.)
  @Test(.timeLimit(.minutes(4))) func aSlotGuardedAgainBeforeTheMainActorLetsGoOfItStaysGuarded() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run {
        let shared = Injection<GlobalViewModel>(strategy: .shared, instance: GlobalViewModel(globalClient.resolve()))
        var released: Injection<GlobalClient>? = Injection(strategy: .singleton, instance: GlobalClient("live"))
        released?.override(with: GlobalClient("released"))
        var held: GlobalViewModel? = shared.resolve()
        let other = SendableInjection<GlobalClient>(strategy: .singleton, instance: GlobalClient("other"))
        other.override(with: GlobalClient("other mock"))
        released = nil
        onThreads(1) { _ in other.rollbackOverride() }
        onThreads(1) { _ in globalClient.override(with: GlobalClient("mock")) }
        held = nil
        let built = shared.resolve()
        precondition(built.client.name == "mock")
        // A read of the guarded slot applies what is pending.
        precondition(shared.resolve() === built)
        onThreads(1) { _ in globalClient.rollbackOverride() }
        let after = shared.resolve()
        precondition(after !== built && after.client.name == "live", "got the instance built with the mock")
        _ = held
      }
    }
  }

  /// A rollback on another thread leaves the main actor a drop of a slot; what the slot stored
  /// since (the next generation of a session, whose end emptied it on the main actor) keeps its
  /// identity when the main actor takes the drop: through a read of the slot stored guarded again,
  /// or through the main actor's own turn.
  @Test(.timeLimit(.minutes(4))) func aDropLeavesWhatTheSlotStoredSinceItWasMade() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let session = InjectionSession("signed-in user")
      let perSession = await MainActor.run {
        Injection<GlobalViewModel>(strategy: .session(session), instance: GlobalViewModel(globalClient.resolve()))
      }
      /// The next generation's instance, stored after a rollback elsewhere left its drop pending
      /// (the main actor busy here) and the session's end emptied the slot; read once more.
      @MainActor func storedAfterADropWasLeft(guardedAgain: Bool) -> GlobalViewModel {
        globalClient.override(with: GlobalClient("mock"))
        precondition(perSession.resolve().client.name == "mock")
        onThreads(1) { _ in globalClient.rollbackOverride() }
        session.end()
        if guardedAgain {
          globalClient.override(with: GlobalClient("second"))
        }
        let next = perSession.resolve()
        precondition(perSession.resolve() === next, "a read of the slot took the drop: the new instance was dropped")
        return next
      }
      let next = await MainActor.run {
        _ = storedAfterADropWasLeft(guardedAgain: true)
        globalClient.rollbackOverride()
        session.end()
        return storedAfterADropWasLeft(guardedAgain: false)
      }
      // The main actor's turn: it takes what is pending.
      await MainActor.run {}
      await MainActor.run { precondition(perSession.resolve() === next, "the drop emptied the new instance") }
    }
  }

  /// A main-actor slot guarded while a sendable override was pushed is read on the fast path
  /// again once no sendable override is left, though a main-actor one stays (a launch override
  /// of a demo target): here the sendable injection is released, which rolls nothing back.
  @Test(.timeLimit(.minutes(4))) func aSlotGuardedByAReleasedSendableOverrideIsLetGoOf() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run {
        // With a main-actor override staying, then with none left.
        for staysPushed in [true, false] {
          let staying = Injection<GlobalClient>(strategy: .singleton, instance: GlobalClient("live"))
          if staysPushed {
            staying.override(with: GlobalClient("staying"))
          }
          let dependent = Injection<GlobalClient>(strategy: .singleton, instance: GlobalClient("dependent"))
          var sendable: SendableInjection<GlobalClient>? = SendableInjection(
            strategy: .singleton, instance: GlobalClient("live"))
          sendable?.override(with: GlobalClient("sendable mock"))
          let stored = dependent.resolve()
          precondition(dependent.publishedInstanceIsGuarded, "stored while a sendable override was pushed")
          sendable = nil
          precondition(dependent.resolve() === stored, "a release rolls nothing back")
          precondition(!dependent.publishedInstanceIsGuarded, "no sendable override left: the fast path reads it")
          staying.rollbackAllOverrides()
        }
      }
    }
  }

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
  @Test(.timeLimit(.minutes(4)))
  func whatAThreadBuildsForAnOverridePoppedWhileItWaitedLeavesWithTheOverride() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let injection = SendableInjection<GlobalClient>(strategy: .singleton, instance: GlobalClient("live"))
      let builds = BlockingBuilds()
      withDebugWarningsSilenced { injection.override(with: GlobalClient("mock \(builds.build())")) }
      let resolved = Locked<[WeakClient]>([])
      let resolve: @Sendable () -> Void = {
        let client = injection.resolve()
        precondition(client.name.hasPrefix("mock"), client.name)
        resolved.withLock { $0.append(WeakClient(client: client)) }
      }
      await rollingBack({ injection.rollbackOverride() }, whileAThreadWaitsForAnothersBuild: builds, of: resolve)
      precondition(builds.count == 2)
      precondition(resolved.withLock { $0.allSatisfy { $0.client == nil } }, "the popped override's instance is kept")
      precondition(injection.resolve().name == "live")
    }
  }

  /// A layer above an override rolled back while a thread waited for another's build of it
  /// (here a member's own decorator over its family's override) stores nothing built from it:
  /// a consumer that starts after the rollback returned gets the decorated live instance.
  @Test(.timeLimit(.minutes(4)))
  func aDecoratorOverAFamilyOverridePoppedWhileAThreadWaitedKeepsNothingBuiltFromIt() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let family = SendableInjectionFamily<Int, GlobalClient>(strategy: .singleton) { GlobalClient("live \($0)") }
      let builds = BlockingBuilds()
      withDebugWarningsSilenced {
        family.override(with: { _ in GlobalClient("family \(builds.build())") })
        family[1].override(with: { GlobalClient("decorated \($0.name)") })
      }
      await rollingBack(
        { family.rollbackOverride() }, whileAThreadWaitsForAnothersBuild: builds, of: { _ = family[1].resolve() })
      let after = family[1].resolve().name
      precondition(after == "decorated live 1", after)
    }
  }

  /// The same in a test world, where a scope decorates the test's override, rolled back while a
  /// thread waited for another's build of it.
  @Test(.timeLimit(.minutes(4)))
  func aScopesDecoratorOverATestsOverridePoppedWhileAThreadWaitedKeepsNothingBuiltFromIt() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await withIsolatedInjections {
        let injection = SendableInjection<GlobalClient>(strategy: .singleton, instance: GlobalClient("live"))
        let builds = BlockingBuilds()
        injection.override(with: GlobalClient("mock \(builds.build())"))
        await injection.withOverride({ GlobalClient("decorated \($0.name)") }) {
          let world = InjectionWorld.current
          await rollingBack(
            { injection.rollbackOverride() }, whileAThreadWaitsForAnothersBuild: builds,
            of: { _ = world.run { injection.resolve() } })
          let after = injection.resolve().name
          precondition(after == "decorated live", after)
        }
      }
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
