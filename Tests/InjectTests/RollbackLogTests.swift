import Inject
import InjectTesting
import Testing

/// The log that makes rollback exact stays bounded while an override stays pushed for good.
@Suite(.misusesOnPurpose) @MainActor struct RollbackLogTests {
  /// Each injection stores an instance while an override is in place, so the log lists its
  /// slot: kept after they died, 300,000 listed slots took about 18 MB.
  @Test func injectionsThatComeAndGoUnderAnOverrideLeftInPlaceLeaveNothingBehind() {
    let (permanent, _) = makeInjection(.singleton)
    permanent.override(with: ServiceImplementation("for good"))
    defer { permanent.rollbackOverride() }
    let residentBefore = residentMegabytes()
    for _ in 0..<300_000 {
      let (injection, _) = makeInjection(.singleton)
      _ = Consumer(injection).service
    }
    if let residentBefore, let residentAfter = residentMegabytes() {
      #expect(residentAfter - residentBefore < 8, "resident memory grew by \(residentAfter - residentBefore) MB")
    }
  }
}
