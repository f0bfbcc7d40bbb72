import Inject
import InjectTesting
import Testing

/// A screen's model that keeps the account store it shows through `@Instance`.
@MainActor
final class SettingsModel {
  @Instance var account: AccountStore

  init(_ injection: Injection<AccountStore>) {
    _account = Instance(injection)
  }
}

/// The survivor report: every instance of an ended generation still alive, once, with the path
/// that holds it.
@Suite(.misusesOnPurpose) @MainActor struct SessionSurvivorTests {
  @Test func aSingletonThatKeepsTheStoreIsNamedAlongItsPath() throws {
    try withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
      let storeLine = #line - 1
      let settings = Injection<SettingsModel>(strategy: .singleton, instance: SettingsModel(store))
      let settingsLine = #line - 1
      let model = Consumer(settings).service
      _ = model.account
      session.end()
      let endLine = #line - 1
      let survivors = session.survivors()
      let survivor = try #require(survivors.first)
      #expect(survivors.count == 1)
      #expect(survivor.injection == "Injection<AccountStore> (InjectTests/SessionSurvivorTests.swift:\(storeLine))")
      #expect(survivor.path.map(\.property) == ["account"])
      #expect(survivor.path.map(\.location) == ["InjectTests/SessionSurvivorTests.swift:11"])
      #expect(
        survivor.message
          == "AccountStore (.session(signed-in user), published at InjectTests/SessionSurvivorTests.swift:\(storeLine)) "
          + "is still alive after the session ended at InjectTests/SessionSurvivorTests.swift:\(endLine): held by "
          + "SettingsModel.account (InjectTests/SessionSurvivorTests.swift:11), held by Injection<SettingsModel> "
          + "(.singleton, published at InjectTests/SessionSurvivorTests.swift:\(settingsLine))")
    }
  }

  @Test func aRootThatKeepsTheStoreIsNamedAndAClosureIsHeldOutsideAnyInstance() throws {
    try withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
      let screen = SettingsModel(store)
      let first = screen.account
      session.end()
      let second = Consumer(store).service
      let keep = { second }
      session.end()
      let survivors = session.survivors(roots: [screen])
      #expect(survivors.count == 2)
      let held = try #require(survivors.first)
      #expect(held.path.map(\.property) == ["account"])
      #expect(
        held.message.hasSuffix(
          "held by SettingsModel.account (InjectTests/SessionSurvivorTests.swift:11), held by the root SettingsModel"))
      let captured = try #require(survivors.last)
      #expect(captured.path.isEmpty)
      #expect(
        captured.message.hasSuffix(
          ": held outside any `@Instance` (a closure, a task, a global, or a property that is not an `@Instance`)"))
      #expect(session.survivors().first?.path.isEmpty == true, "without the root, no walked path reaches it")
      withExtendedLifetime((first, keep)) {}
    }
  }

  @Test func eachSurvivorIsListedOnceAndAReleasedOneIsNot() {
    withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
      let holders = [Consumer(store), Consumer(store)]
      _ = holders.map(\.service)
      weak var released: AccountStore?
      let other = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 2))
      do { released = Consumer(other).service }
      session.end()
      #expect(released == nil)
      #expect(session.survivors(roots: holders).count == 1)
      #expect(session.survivors(roots: holders).first?.path.count == 1)
      withExtendedLifetime(holders) {}
    }
  }

  @Test func aSessionInstanceThatAGlobalRollbackForgetsInAScopeIsStillWatched() {
    let session = InjectionSession("signed-in user")
    let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
    let other = Injection<AccountStore>(strategy: .singleton, instance: AccountStore(serial: 2))
    store.override(with: AccountStore(serial: 100))
    other.withOverride(AccountStore(serial: 3)) {
      let held = Consumer(store).service
      #expect(held.serial == 100)
      // The popped layer's instance leaves the scope's world with its slot, not in a rollback of
      // the scope (a scope outside a test has no rollback log).
      store.rollbackOverride()
      session.end()
      #expect(session.survivors().map(\.injection).count == 1)
      withExtendedLifetime(held) {}
    }
  }

  @Test func survivorsOfAnotherWorldAreNotListed() {
    let session = InjectionSession("signed-in user")
    let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
    let global = Consumer(store)
    _ = global.service
    withIsolatedInjections {
      let tested = Consumer(store)
      _ = tested.service
      session.end()
      #expect(session.survivors().count == 1)
      withIsolatedInjections {
        #expect(session.survivors().isEmpty, "a nested world's own generations ended nowhere")
      }
      withExtendedLifetime(tested) {}
    }
    #expect(session.survivors().isEmpty, "the global world's generation has not ended")
    withExtendedLifetime(global) {}
  }

  @Test func aCleanSignOutLeavesNoSurvivor() {
    withIsolatedInjections {
      let session = InjectionSession("signed-in user")
      let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
      weak var released: AccountStore?
      do {
        let screen = SettingsModel(store)
        released = screen.account
      }
      #expect(expectSessionEnds(session))
      #expect(released == nil)
    }
  }
}

/// The check that runs by itself after `end()` outside test worlds: its warnings are captured,
/// and a test that ends a session in the global world makes them.
@Suite @MainActor struct SessionSurvivorWarningTests {
  @Test func endingInTheGlobalWorldWarnsAboutEachSurvivorOnceTheMainActorIsFree() async {
    let session = InjectionSession("signed-in user")
    let store = Injection<AccountStore>(strategy: .session(session), instance: AccountStore(serial: 1))
    let holder = Consumer(store)
    _ = holder.service
    let (_, warnings) = await withDebugWarningsCaptured {
      session.end()
      let before = session.survivors().count
      // The check runs once the main actor's current work is done.
      for _ in 0..<10 {
        await Task.yield()
      }
      #expect(before == 1)
    }
    #expect(warnings.count == expectedWarningCount(1))
    #expect(
      shownInDebugBuilds(warnings).allSatisfy {
        $0.hasPrefix("Inject warning: Injection<AccountStore> (InjectTests/SessionSurvivorTests.swift:")
          && $0.contains("is still alive after the session ended at InjectTests/SessionSurvivorTests.swift:")
          && $0.contains("held outside any `@Instance`")
      })
    withExtendedLifetime(holder) {}
  }
}
