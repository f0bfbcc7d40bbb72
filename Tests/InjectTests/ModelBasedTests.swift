import Inject
import Testing

/// Seeded random sequences of overrides (each form), rollbacks and consumers created, read,
/// assigned, reset and dropped, checked step by step against a small model of which instance
/// each read returns and which instances are alive.
@Suite @MainActor struct ModelBasedTests {
  @Test(arguments: 0..<64 as Range<UInt64>)
  func randomSequenceMatchesTheModel(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let world = World(random: &random)
    for step in 0..<400 {
      let operation = world.randomOperation(&random)
      world.apply(operation)
      let mismatches = world.aliveMismatches()
      #expect(mismatches.isEmpty, "seed \(seed), step \(step), after \(operation): alive differs for \(mismatches)")
      if !mismatches.isEmpty { return }
    }
  }
}

// MARK: - The system under test and its model, side by side

/// An instance the tests can name and watch for deallocation.
private final class Tracked {
  let name: String
  init(_ name: String) { self.name = name }
}

private enum Operation: CustomStringConvertible {
  case pushInstance(Int, Strategy?)
  case pushTransform(Int, Strategy?)
  case pushDelegate
  case rollback(Int)
  case rollbackAll(Int)
  case createConsumer(Int)
  case read(Int)
  case assign(Int)
  case reset(Int)
  case drop(Int)

  var description: String {
    switch self {
    case .pushInstance(let injection, let strategy):
      "override \(injection) with an instance, \(String(describing: strategy))"
    case .pushTransform(let injection, let strategy):
      "override \(injection) with a closure, \(String(describing: strategy))"
    case .pushDelegate: "override 0 with injection 1"
    case .rollback(let injection): "rollback \(injection)"
    case .rollbackAll(let injection): "rollback all of \(injection)"
    case .createConsumer(let injection): "create a consumer of \(injection)"
    case .read(let consumer): "read consumer \(consumer)"
    case .assign(let consumer): "assign consumer \(consumer)"
    case .reset(let consumer): "reset consumer \(consumer)"
    case .drop(let consumer): "drop consumer \(consumer)"
    }
  }
}

@MainActor
private final class World {
  /// Two injections: 0 may delegate to 1, never the reverse, so no loop can form.
  private let injections: [Injection<Tracked>]
  private let real = Registry()
  private var model: [[ModelLayer]]
  private var consumers: [(real: Consumer<Tracked>, injection: Int, held: String?)] = []
  private var modelCounters: [String: Int] = [:]
  private var nextLayer = 0
  /// Advanced by every push, as the engine's rollback epochs are.
  private var epoch = 0

  init(random: inout SplitMix64) {
    let strategies = (0..<2).map { _ in Strategy.allCases.randomElement(using: &random) ?? .shared }
    model = strategies.enumerated().map { [ModelLayer(kind: .instance("I\($0.offset)"), strategy: $0.element)] }
    injections = strategies.enumerated().map { [real] index, strategy in
      Injection(strategy: strategy, instance: real.build("I\(index)"))
    }
  }

  func randomOperation(_ random: inout SplitMix64) -> Operation {
    let injection = Int.random(in: 0..<2, using: &random)
    let strategy = ([nil] + Strategy.allCases).randomElement(using: &random) ?? nil
    let consumer = consumers.isEmpty ? nil : Int.random(in: 0..<consumers.count, using: &random)
    switch (Int.random(in: 0..<100, using: &random), consumer) {
    case (0..<8, _): return .pushInstance(injection, strategy)
    case (8..<16, _): return .pushTransform(injection, strategy)
    case (16..<20, _): return .pushDelegate
    case (20..<30, _): return .rollback(injection)
    case (30..<32, _): return .rollbackAll(injection)
    case (_, nil), (32..<50, _): return .createConsumer(injection)
    case (50..<75, let consumer?): return .read(consumer)
    case (75..<80, let consumer?): return .assign(consumer)
    case (80..<85, let consumer?): return .reset(consumer)
    case (_, let consumer?): return .drop(consumer)
    }
  }

  func apply(_ operation: Operation) {
    switch operation {
    case .pushInstance(let index, let strategy):
      let prefix = "L\(nextLayer)"
      nextLayer += 1
      let real = real
      injections[index].override(with: real.build(prefix), strategy: strategy)
      push(.instance(prefix), strategy, on: index)
    case .pushTransform(let index, let strategy):
      let prefix = "T\(nextLayer)"
      nextLayer += 1
      injections[index].override(
        with: { [real] inner in real.track(Tracked("\(prefix)(\(inner.name))")) }, strategy: strategy)
      push(.transform(prefix), strategy, on: index)
    case .pushDelegate:
      injections[0].override(with: injections[1])
      epoch += 1
      model[0].append(ModelLayer(kind: .delegate, strategy: .onDemand, pushEpoch: epoch))
    case .rollback(let index):
      injections[index].rollbackOverride()
      if model[index].count > 1 { pop(from: model[index].count - 1, of: index) }
    case .rollbackAll(let index):
      injections[index].rollbackAllOverrides()
      if model[index].count > 1 { pop(from: 1, of: index) }
    case .createConsumer(let index):
      consumers.append((Consumer(injections[index]), index, nil))
    case .read(let consumer):
      let expected = consumers[consumer].held ?? resolve(consumers[consumer].injection)
      consumers[consumer].held = expected
      let actual = consumers[consumer].real.service.name
      #expect(actual == expected, "read after \(operation)")
    case .assign(let consumer):
      let name = nextName("local")
      consumers[consumer].real.service = real.track(Tracked(name))
      consumers[consumer].held = name
    case .reset(let consumer):
      consumers[consumer].real.$service.reset()
      consumers[consumer].held = nil
    case .drop(let consumer):
      consumers.remove(at: consumer)
    }
  }

  /// The names whose real instance is alive when the model says it is dead, or the reverse.
  func aliveMismatches() -> [String] {
    let alive = Set(consumers.compactMap(\.held) + model.joined().compactMap(\.kept))
    return real.watched.filter { name, reference in (reference.object != nil) != alive.contains(name) }.keys.sorted()
  }

  // MARK: Model side

  private struct ModelLayer {
    enum Kind {
      case instance(String)
      case transform(String)
      case delegate
    }
    let kind: Kind
    let strategy: Strategy
    /// The epoch of the push that made this layer (0 for a published one).
    var pushEpoch = 0
    var kept: String?
    var shared: String?
    /// The epoch when `kept` or `shared` was stored.
    var storedEpoch = 0
  }

  private func push(_ kind: ModelLayer.Kind, _ strategy: Strategy?, on index: Int) {
    let published = model[index][0].strategy
    epoch += 1
    model[index].append(ModelLayer(kind: kind, strategy: strategy ?? published, pushEpoch: epoch))
  }

  /// Pops the layers of `injection` from `index` up, and forgets every instance of every
  /// injection stored since the first of them was pushed: rollback is exact.
  private func pop(from index: Int, of popped: Int) {
    let since = model[popped][index].pushEpoch
    model[popped].removeSubrange(index...)
    for injection in model.indices {
      for layer in model[injection].indices where model[injection][layer].storedEpoch >= since {
        model[injection][layer].kept = nil
        model[injection][layer].shared = nil
      }
    }
  }

  private func nextName(_ prefix: String) -> String {
    modelCounters[prefix, default: 0] += 1
    return "\(prefix)#\(modelCounters[prefix, default: 0])"
  }

  private func isAlive(_ name: String) -> Bool {
    consumers.contains { $0.held == name } || model.contains { $0.contains { $0.kept == name } }
  }

  private func resolve(_ injection: Int) -> String {
    resolve(injection, layer: model[injection].count - 1)
  }

  private func resolve(_ injection: Int, layer index: Int) -> String {
    let layer = model[injection][index]
    if case .delegate = layer.kind {
      return resolve(1)
    }
    switch layer.strategy {
    case .singleton:
      if let kept = layer.kept { return kept }
      let name = make(injection, layer: index)
      model[injection][index].kept = name
      model[injection][index].storedEpoch = epoch
      return name
    case .shared:
      if let shared = layer.shared, isAlive(shared) { return shared }
      let name = make(injection, layer: index)
      model[injection][index].shared = name
      model[injection][index].storedEpoch = epoch
      return name
    case .onDemand:
      return make(injection, layer: index)
    }
  }

  private func make(_ injection: Int, layer index: Int) -> String {
    switch model[injection][index].kind {
    case .instance(let prefix): nextName(prefix)
    case .transform(let prefix): "\(prefix)(\(make(injection, layer: index - 1)))"
    case .delegate: make(1, layer: model[1].count - 1)
    }
  }
}

/// The real side's factories: they name each instance they build and watch it.
@MainActor
private final class Registry {
  private var counters: [String: Int] = [:]
  private(set) var watched: [String: WeakTracked] = [:]

  func build(_ prefix: String) -> Tracked {
    counters[prefix, default: 0] += 1
    return track(Tracked("\(prefix)#\(counters[prefix, default: 0])"))
  }

  func track(_ instance: Tracked) -> Tracked {
    watched[instance.name] = WeakTracked(object: instance)
    return instance
  }
}

private struct WeakTracked {
  weak var object: Tracked?
}

/// A small, fast, seedable generator, so a failing sequence can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
