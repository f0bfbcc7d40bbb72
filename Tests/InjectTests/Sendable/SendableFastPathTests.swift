import Foundation
import Inject
import TestSupport
import Testing

/// A sendable injection's fast path, outside every world with no telemetry (so each test runs in
/// a child process: another test's world would close the path): it reads the published layer
/// with no lock of the injection's own while nothing is pushed, and the top of the global stack
/// once something is, on every thread, through pushes and rollbacks.
@Suite struct SendableFastPathTests {
  @Test(.timeLimit(.minutes(4))) func theFastPathResolvesTheTopOfTheGlobalStackThroughPushesAndRollbacks() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let builds = Counter()
      let singleton = SendableInjection<FastClient>(strategy: .singleton, instance: FastClient("live"))
      let onDemand = SendableInjection<FastClient>(strategy: .onDemand, instance: FastClient("live", counting: builds))
      let family = SendableInjectionFamily<Int, FastClient>(strategy: .singleton) { FastClient("member \($0)") }
      let mock = FastClient("mock")
      await Task.detached {
        let live = singleton.resolve()
        precondition(singleton.resolve() === live, "a .singleton built twice")
        singleton.override(with: mock)
        precondition(singleton.resolve() === mock, "the fast path missed an override pushed on this thread")
        await Task.detached { precondition(singleton.resolve() === mock, "another thread missed the override") }.value
        singleton.rollbackOverride()
        precondition(singleton.resolve() === live, "after the rollback, not the published instance")

        _ = (onDemand.resolve(), onDemand.resolve())
        precondition(builds.value == 2, "an .onDemand injection built \(builds.value) for 2 consumers")
        onDemand.override(with: mock)
        precondition(onDemand.resolve() === mock && builds.value == 2, "the override was not resolved")
        onDemand.rollbackOverride()
        _ = onDemand.resolve()
        precondition(builds.value == 3, "after the rollback, the published factory did not build")

        let member = family[7].resolve()
        family.override(with: { _ in mock })
        precondition(family[7].resolve() === mock, "the fast path missed the family's override")
        family.rollbackOverride()
        precondition(family[7].resolve() === member, "after the family's rollback, not the member's instance")
      }.value
    }
  }
}

private final class FastClient: Sendable {
  let name: String
  init(_ name: String, counting builds: Counter? = nil) {
    self.name = name
    builds?.increment()
  }
}
