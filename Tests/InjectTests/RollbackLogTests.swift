import Inject
import InjectTesting
import TestSupport
import Testing

/// The log that makes rollback exact stays bounded while an override stays pushed for good.
@Suite(.misusesOnPurpose) @MainActor struct RollbackLogTests {
  /// At any scale, exactly: the log lists the slots alive and at most one pruning's worth of
  /// released ones, not every slot that ever stored under the override.
  @Test func theLogListsNoMoreThanOnePruningOfReleasedSlots() {
    let (permanent, _) = makeInjection(.singleton)
    permanent.override(with: ServiceImplementation("for good"))
    defer { permanent.rollbackOverride() }
    for _ in 0..<5_000 {
      let (injection, _) = makeInjection(.singleton)
      _ = Consumer(injection).service
    }
    #expect(globalRollbackLogCount() < 1_000, "the log lists \(globalRollbackLogCount()) slots")
  }

  /// Each injection stores an instance while an override is in place, so the log lists its
  /// slot: kept after they died, 300,000 listed slots took about 18 MB.
  ///
  /// Only at full scale (`INJECT_STRESS=1`): fewer slots are lost in the noise of resident
  /// memory, and while the other tests' worlds are alive, 300,000 injections take most of a minute.
  /// Where resident memory cannot be read (not Linux), it is skipped, not passed.
  @Test(
    .enabled(if: StressScale.isFull, "a stress test: INJECT_STRESS=1 runs it"),
    .enabled(if: residentMegabytes() != nil, "resident memory is read on Linux only"))
  func injectionsThatComeAndGoUnderAnOverrideLeftInPlaceLeaveNothingBehind() throws {
    let (permanent, _) = makeInjection(.singleton)
    permanent.override(with: ServiceImplementation("for good"))
    defer { permanent.rollbackOverride() }
    let residentBefore = try #require(residentMegabytes())
    for _ in 0..<300_000 {
      let (injection, _) = makeInjection(.singleton)
      _ = Consumer(injection).service
    }
    let residentAfter = try #require(residentMegabytes())
    #expect(residentAfter - residentBefore < 8, "resident memory grew by \(residentAfter - residentBefore) MB")
  }
}
