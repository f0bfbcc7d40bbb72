import Inject
import InjectTesting
import TestSupport
import Testing

/// What a rollback costs: in proportion to what it drops, however many instances are stored
/// elsewhere, and however deep the stack it pops from; and a push, and a resolution through a
/// chain of delegations, in proportion to the depth.
///
/// Each cost is a ratio of two times measured in one run, each the best of several, so that a
/// busy machine slows both sides alike. In the global world of a child process: its rollbacks
/// drop nothing of the tests beside these, and its 100,000 instances weigh on no count of theirs.
@Suite(
  // One at a time: each test measures a ratio of times, which another test's child process,
  // running beside it on the same cores, would skew.
  .serialized,
  .timeLimit(.minutes(5)),
  .enabled(
    if: isSetInEnvironment("INJECT_TIMING") && !isUnderSanitizer,
    "ratios of times: run alone with INJECT_TIMING=1 (a busy machine or a sanitizer skews them)")
)
struct RollbackCostTests {
  /// With an override left in place (as a launch override is), a rollback of an unrelated
  /// override costs no more than ten times as much with 100,000 instances stored as with none:
  /// every rollback filtered every slot listed since the first push, 40 ms each at this scale.
  @Test(.timeLimit(.minutes(4))) func aRollbackCostsTheSameWithAHundredThousandInstancesStoredElsewhere() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let permanent = SendableInjection<Int>(strategy: .singleton, instance: 0)
      permanent.override(with: 1)
      let alone = costOfUnrelatedRollback()
      let family = SendableInjectionFamily<Int, Built>(strategy: .singleton) { Built($0) }
      for key in 0..<100_000 {
        _ = family[key].resolve()
      }
      let crowded = costOfUnrelatedRollback()
      precondition(crowded <= alone * 10, "with 100,000 stored: \(crowded), with none: \(alone)")
    }
  }

  /// Rolling back a stack one override at a time, an instance stored from each, costs in
  /// proportion to its depth, for every kind: 4,000 layers no more than 8 times as much as 1,000
  /// (quadratic, it was 16 times as much).
  @Test(.timeLimit(.minutes(4))) func rollingBackADeepStackOneByOneIsLinear() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      for stack in DeepStack.allCases {
        let (shallow, deep) = await atDepths1000And4000(stack.costOfRollingBack(depth:))
        precondition(deep <= shallow * 8, "\(stack): 4,000 deep: \(deep), 1,000 deep: \(shallow)")
      }
    }
  }

  /// Resolving through a chain of sendable delegations costs in proportion to its length: 4,000
  /// no more than 8 times as much as 1,000 (each step scanned the thread's chain for a cycle,
  /// 16 times as much).
  @Test(.timeLimit(.minutes(4))) func resolvingThroughADeepSendableChainIsLinear() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      let (shallow, deep) = await atDepths1000And4000 { costOfResolvingASendableChain(depth: $0) }
      precondition(deep <= shallow * 8, "4,000 deep: \(deep), 1,000 deep: \(shallow)")
    }
  }

  /// Pushing a stack of overrides in a test world costs in proportion to its depth, for both
  /// kinds: 4,000 pushes no more than 8 times as much as 1,000 (each push copied the test's
  /// stack, 16 times as much).
  @Test(.timeLimit(.minutes(4))) func pushingADeepStackInATestWorldIsLinear() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      for kind in [DeepStack.mainActor, .sendable] {
        let (shallow, deep) = await atDepths1000And4000(kind.costOfPushingInATestWorld(depth:))
        precondition(deep <= shallow * 8, "\(kind): 4,000 pushes: \(deep), 1,000 pushes: \(shallow)")
      }
    }
  }
}

/// What resolving through a chain of `depth` sendable injections, each overridden with the
/// next in a test world of its own, costs.
private func costOfResolvingASendableChain(depth: Int) -> Duration {
  withIsolatedInjections {
    let chain = (0..<depth).map { SendableInjection<Int>(strategy: .onDemand, instance: $0) }
    for (injection, next) in zip(chain, chain.dropFirst()) {
      injection.override(with: next)
    }
    return ContinuousClock().measure {
      precondition(chain[0].resolve() == depth - 1, "resolved through the chain")
    }
  }
}

/// What `cost` measures at depths 1,000 and 4,000, each the best of a few runs, each a moment
/// that the machine may spend elsewhere.
private func atDepths1000And4000(
  _ cost: (_ depth: Int) async -> Duration
) async -> (shallow: Duration, deep: Duration) {
  var (shallow, deep) = (Duration.seconds(1_000), Duration.seconds(1_000))
  for _ in 0..<3 {
    shallow = min(shallow, await cost(1_000))
  }
  for _ in 0..<2 {
    deep = min(deep, await cost(4_000))
  }
  return (shallow, deep)
}

/// The best of five batches of `body` run `count` times.
private func bestOfFiveBatches(of count: Int, _ body: () -> Void) -> Duration {
  (0..<5).map { _ in
    ContinuousClock().measure {
      for _ in 0..<count {
        body()
      }
    }
  }.min() ?? .zero
}

/// What a push, a read and a rollback of a new injection cost in the global world.
private func costOfUnrelatedRollback() -> Duration {
  let unrelated = SendableInjection<Built>(strategy: .singleton, instance: Built())
  return bestOfFiveBatches(of: 50) {
    unrelated.override(with: Built(1))
    _ = unrelated.resolve()
    unrelated.rollbackOverride()
  }
}

/// A stack of overrides of each kind, each override's instance stored, rolled back one by one.
enum DeepStack: CaseIterable, Sendable {
  case mainActor, sendable, sendableFamily

  /// What rolling back `depth` overrides one by one costs, in the global world, each of whose
  /// overrides stored an instance.
  func costOfRollingBack(depth: Int) async -> Duration {
    switch self {
    case .mainActor:
      return await MainActor.run {
        let injection = Injection<Built>(strategy: .singleton, instance: Built())
        return rollingBack(
          depth: depth, pushedBy: { injection.override(with: Built($0)) }, storing: { _ = injection.resolve() },
          rollback: { injection.rollbackOverride() })
      }
    case .sendable:
      let injection = SendableInjection<Built>(strategy: .singleton, instance: Built())
      return rollingBack(
        depth: depth, pushedBy: { injection.override(with: Built($0)) }, storing: { _ = injection.resolve() },
        rollback: { injection.rollbackOverride() })
    case .sendableFamily:
      let family = SendableInjectionFamily<Int, Built>(strategy: .singleton) { Built($0) }
      return rollingBack(
        depth: depth, pushedBy: { layer in family.override(with: { _ in Built(layer) }) },
        storing: { _ = family[0].resolve() }, rollback: { family.rollbackOverride() })
    }
  }

  /// What pushing `depth` overrides one by one costs in a test world of their own.
  func costOfPushingInATestWorld(depth: Int) async -> Duration {
    switch self {
    case .mainActor:
      return await MainActor.run {
        let injection = Injection<Built>(strategy: .singleton, instance: Built())
        return withIsolatedInjections {
          ContinuousClock().measure {
            for layer in 0..<depth {
              injection.override(with: Built(layer))
            }
          }
        }
      }
    case .sendable, .sendableFamily:
      let injection = SendableInjection<Built>(strategy: .singleton, instance: Built())
      return withIsolatedInjections {
        ContinuousClock().measure {
          for layer in 0..<depth {
            injection.override(with: Built(layer))
          }
        }
      }
    }
  }

  /// What rolling back `depth` overrides that `push` pushed one by one costs, once `store` stored
  /// an instance from each.
  private func rollingBack(
    depth: Int, pushedBy push: (Int) -> Void, storing store: () -> Void, rollback: () -> Void
  ) -> Duration {
    for layer in 0..<depth {
      push(layer)
      store()
    }
    return ContinuousClock().measure {
      for _ in 0..<depth {
        rollback()
      }
    }
  }
}
