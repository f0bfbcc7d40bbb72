/// A test's override stacks: what `override(with:)` pushes inside a test world, one stack per
/// injection, for the test world and every world and task inside it.
///
/// A test world opened outside any other creates them; the worlds opened inside it share them.
/// Consumers in those worlds resolve a scope's own override first, then the top of the test's
/// stack, then the global stack: so 1.x-style set-up and tear-down (`override(with:)`, then
/// `rollbackOverride()`) stays in the test, and tests that run in parallel never see each
/// other's pushes. What is left pushed goes when the last world of the test is released.
///
/// Rollback is exact here as it is globally: ``log`` lists what the test's worlds stored while
/// an override was pushed, and a rollback drops what they stored since the push.
@MainActor
final class TestOverrides {
  /// Each injection's stack of `Layer<T>`, bottom first, by the injection's identifier.
  // NB: `nonisolated(unsafe)` only so that `deinit`, which is nonisolated, can move the stacks
  // out to the main actor. It is safe: every other access is from a main-actor-isolated member,
  // and `deinit` runs when nothing else can reach this object. A cell, so that resolution reads
  // it with no dynamic exclusivity check.
  private nonisolated(unsafe) let stacks = Cell.make([ObjectIdentifier: Stack]())

  private struct Stack {
    /// The `Injection<T>`, held so that its identifier stays unique while it has a stack.
    let injection: AnyObject
    /// Its `Layer<T>`s, bottom first.
    var layers: [AnyObject]
  }

  /// What the test's worlds stored while an override of the test was pushed.
  let log = RollbackLog()

  /// How many overrides of `injection` the test has pushed.
  func depth(of injection: AnyObject) -> Int {
    stacks.access { $0.isEmpty ? 0 : $0[ObjectIdentifier(injection)]?.layers.count ?? 0 }
  }

  /// The layer of `injection` at `depth` (1 is the first pushed).
  func layer<T>(of injection: Injection<T>, at depth: Int) -> Layer<T> {
    guard let layer = stacks.access({ $0[ObjectIdentifier(injection)]?.layers[depth - 1] }) else {
      preconditionFailure("\(injection.label) has no test override at depth \(depth).")
    }
    // Only `push(_:on:)` stores under an injection's identifier, its `Layer<T>`s.
    return unsafeDowncast(layer, to: Layer<T>.self)
  }

  /// Pushes `layer` on `injection`'s stack.
  func push<T>(_ layer: Layer<T>, on injection: Injection<T>) {
    stacks.access {
      $0[ObjectIdentifier(injection), default: Stack(injection: injection, layers: [])].layers.append(layer)
    }
  }

  /// Pops `injection`'s layers until `depth` are left; returns them, for the caller to release
  /// once no state is being changed any more.
  func pop<T>(_ injection: Injection<T>, to depth: Int) -> [Layer<T>] {
    let key = ObjectIdentifier(injection)
    let popped = stacks.access { stacks -> [AnyObject] in
      guard var stack = stacks.removeValue(forKey: key) else { return [] }
      let popped = Array(stack.layers[depth...])
      stack.layers.removeSubrange(depth...)
      if !stack.layers.isEmpty {
        stacks[key] = stack
      }
      return popped
    }
    // Only `push(_:on:)` stores them, `Layer<T>`s of `injection`.
    return popped.map { unsafeDowncast($0, to: Layer<T>.self) }
  }

  deinit {
    // Moved out, not copied, so that the layers (and what their values and closures captured)
    // are released on the main actor, whichever task lets the test's last world go.
    var moved: [ObjectIdentifier: Stack] = [:]
    stacks.access { swap(&moved, &$0) }
    MainActorRelease.release(consume moved)
  }
}
