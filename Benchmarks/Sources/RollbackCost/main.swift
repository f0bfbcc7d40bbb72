import Inject

// What a rollback costs, against the number of instances it drops and the number stored
// elsewhere, and what rolling back a deep stack one override at a time costs per override: in the
// global world, with one override left in place (as a launch override is), so that every store is
// listed in the rollback log. Prints a Markdown table; `swift run -c release RollbackCost`.

final class Stored: Sendable {
  let key: Int
  init(_ key: Int) { self.key = key }
}

/// The median of `runs` measurements of `body`, in microseconds.
@MainActor
func median(_ runs: Int, _ body: () -> Duration) -> Double {
  let times = (0..<runs).map { _ in body() }.sorted()
  let middle = times[runs / 2].components
  return Double(middle.seconds) * 1e6 + Double(middle.attoseconds) / 1e12
}

@MainActor
func main() {
  let launch = Injection<Int>(strategy: .singleton, instance: 0)
  launch.override(with: 1)
  let elsewhere = SendableInjectionFamily<Int, Stored>(strategy: .singleton) { Stored($0) }
  var storedElsewhere = 0
  print("| stored elsewhere | dropped | rollback, µs (median of 21) |")
  print("| ---: | ---: | ---: |")
  for stored in [0, 10_000, 100_000] {
    while storedElsewhere < stored {
      _ = elsewhere[storedElsewhere].resolve()
      storedElsewhere += 1
    }
    for dropped in [1, 100, 10_000] {
      let unrelated = Injection<Int>(strategy: .singleton, instance: 0)
      let droppedFamily = SendableInjectionFamily<Int, Stored>(strategy: .singleton) { Stored($0) }
      let members = (0..<dropped).map { droppedFamily[$0] }
      let time = median(21) {
        unrelated.override(with: 1)
        for member in members {
          _ = member.resolve()
        }
        return ContinuousClock().measure { unrelated.rollbackOverride() }
      }
      print("| \(stored) | \(dropped) | \(String(format: time)) |")
    }
  }
  print()
  print("| stack | depth | one-by-one rollback, µs per override |")
  print("| --- | ---: | ---: |")
  for depth in [1_000, 4_000, 16_000] {
    let injection = Injection<Stored>(strategy: .singleton, instance: Stored(0))
    let sendable = SendableInjection<Stored>(strategy: .singleton, instance: Stored(0))
    let family = SendableInjectionFamily<Int, Stored>(strategy: .singleton) { Stored($0) }
    let stacks: [(String, (Int) -> Void, () -> Void)] = [
      (
        "main actor",
        { layer in
          injection.override(with: Stored(layer))
          _ = injection.resolve()
        }, { injection.rollbackOverride() }
      ),
      (
        "sendable",
        { layer in
          sendable.override(with: Stored(layer))
          _ = sendable.resolve()
        }, { sendable.rollbackOverride() }
      ),
      (
        "sendable family",
        { layer in
          family.override(with: { _ in Stored(layer) })
          _ = family[0].resolve()
        }, { family.rollbackOverride() }
      ),
    ]
    for (name, push, rollback) in stacks {
      for layer in 0..<depth {
        push(layer)
      }
      let time = ContinuousClock().measure {
        for _ in 0..<depth {
          rollback()
        }
      }
      let total = time.components
      let perOverride = (Double(total.seconds) * 1e6 + Double(total.attoseconds) / 1e12) / Double(depth)
      print("| \(name) | \(depth) | \(String(format: perOverride)) |")
    }
  }
  launch.rollbackOverride()
}

extension String {
  /// `value` with two decimals.
  init(format value: Double) {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}

MainActor.assumeIsolated { main() }
