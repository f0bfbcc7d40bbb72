import Inject
import Testing

/// Seeded random sequences of overrides (each form), rollbacks, scopes, and consumers created,
/// read, assigned, reset and dropped, checked step by step against a small model of which
/// instance each read returns and which instances are alive.
///
/// Four injections: 0 and 1 build plain instances, and 0 may delegate to 1; 2 is a dependent
/// whose factory reads 0 through a consumer; 3 is a service that holds a consumer of 1 and
/// reads it lazily, when a test reads through it. A scope (`withIsolatedInjections`, or
/// `withOverride` in each form) runs a random sub-sequence in a fresh world, nested up to two
/// deep; global pushes and rollbacks inside a plain scope apply to it, read live, and inside a
/// test world (`withIsolatedInjections` and the scopes inside it) go on the test's own stack.
/// Any layer may have the `.session` strategy of one session, which the sequence ends in the
/// innermost world: the model drops what that world stored for the session's generation, and
/// every instance, in any world, whose build resolved one of its instances.
///
/// A consumer made in a world (by the sequence, or by a factory) remembers its configuration,
/// and resolves with it wherever it first reads: in the current world if that is the remembered
/// one or nested in it, else, once the world has ended, in a world made again from its
/// configuration, which finds what any world of that configuration stored that is still alive.
@Suite @MainActor struct ModelBasedTests {
  @Test(arguments: 0..<64 as Range<UInt64>)
  func randomSequenceMatchesTheModel(seed: UInt64) {
    let system = System(seed: seed)
    // The sequences override late and roll back with nothing pushed on purpose, thousands of
    // times; DebugWarningsTests checks the warnings.
    withDebugWarningsSilenced { system.run(steps: 400) }
  }
}

// MARK: - The system under test and its model, side by side

/// An instance the tests can name and watch for deallocation; a dependent or a lazy reader
/// holds the consumer it reads through.
private final class Tracked {
  let name: String
  let inner: Consumer<Tracked>?
  init(_ name: String, inner: Consumer<Tracked>? = nil) {
    self.name = name
    self.inner = inner
  }
}

private enum Operation: CustomStringConvertible {
  case pushInstance(Int, Strategy?)
  case pushTransform(Int, Strategy?)
  case pushDelegate
  case rollback(Int)
  case rollbackAll(Int)
  case scope(Scope, steps: Int)
  case createConsumer(Int)
  case read(Int)
  case readInner(Int)
  case assign(Int)
  case reset(Int)
  case drop(Int)
  case endSession

  enum Scope {
    case isolated
    case instance(Int, Strategy?)
    case transform(Int, Strategy?)
    case delegate
  }

  var description: String {
    switch self {
    case .pushInstance(let injection, let strategy):
      "override \(injection) with an instance, \(String(describing: strategy))"
    case .pushTransform(let injection, let strategy):
      "override \(injection) with a closure, \(String(describing: strategy))"
    case .pushDelegate: "override 0 with injection 1"
    case .rollback(let injection): "rollback \(injection)"
    case .rollbackAll(let injection): "rollback all of \(injection)"
    case .scope(let scope, let steps): "\(steps) steps in a scope: \(scope)"
    case .createConsumer(let injection): "create a consumer of \(injection)"
    case .read(let consumer): "read consumer \(consumer)"
    case .readInner(let consumer): "read through consumer \(consumer)"
    case .assign(let consumer): "assign consumer \(consumer)"
    case .reset(let consumer): "reset consumer \(consumer)"
    case .drop(let consumer): "drop consumer \(consumer)"
    case .endSession: "end the session"
    }
  }
}

@MainActor
private final class System {
  private static let injectionCount = 4
  private let seed: UInt64
  private var random: SplitMix64
  private let injections: [Injection<Tracked>]
  private let real: Registry
  private var consumers: [(real: Consumer<Tracked>, injection: Int, held: String?, world: ModelConfig?)] = []
  /// Where the sequence first differed from the model, if it did: nothing runs after it.
  private var failure: String?
  private var operations = 0
  /// The session that `.session` layers name.
  private let session: InjectionSession
  /// Every strategy a layer may have.
  private let strategies: [Strategy]

  /// The model: each injection's global stack, bottom first.
  private var model: [[ModelLayer]]
  /// The open scopes' worlds, outermost first.
  private var worlds: [ModelWorld] = []
  /// While a consumer resolves in a world made again, the open scopes' worlds, which still hold
  /// what they stored.
  private var suspended: [ModelWorld] = []
  /// The worlds of ended scopes that are still alive: in debug builds, a session ended in a world
  /// outside tests reports its survivors in a main-actor task that inherits the world, and runs
  /// after this test.
  private var pinned: [ModelWorld] = []
  /// The test's stacks while a test world is open: those of the outermost test world, shared by
  /// the worlds inside it.
  private var test: ModelTest? { worlds.last?.config.test }
  /// What the instances that hold a consumer read through it: by the instance's name.
  private var inner: [String: Inner] = [:]
  private var modelCounters: [String: Int] = [:]
  private var nextLayer = 0
  /// Advanced by every push, as the engine's rollback epochs are.
  private var epoch = 0
  /// The global world's current generation of the session, if one began.
  private var globalGeneration: Int?
  private var lastGeneration = 0
  /// The generations that each build in progress resolved, innermost last.
  private var frames: [Set<Int>] = []

  init(seed: UInt64) {
    self.seed = seed
    var random = SplitMix64(seed: seed)
    let real = Registry()
    let session = InjectionSession("model")
    self.session = session
    self.strategies = Strategy.allCases + [.session(session)]
    let strategies = (0..<Self.injectionCount).map { [strategies] _ in
      strategies.randomElement(using: &random) ?? .shared
    }
    let kinds: [ModelLayer.Kind] = [.instance("I0"), .instance("I1"), .dependent("I2", on: 0), .reader("I3", of: 1)]
    model = zip(kinds, strategies).enumerated().map {
      [ModelLayer(id: -1 - $0.offset, kind: $0.element.0, strategy: $0.element.1)]
    }
    var injections: [Injection<Tracked>] = []
    for (kind, strategy) in zip(kinds, strategies) {
      switch kind {
      case .instance(let prefix):
        injections.append(Injection(strategy: strategy, instance: real.build(prefix)))
      case .dependent(let prefix, let source):
        let source = injections[source]
        injections.append(Injection(strategy: strategy, instance: real.buildDependent(prefix, on: source)))
      case .reader(let prefix, let source):
        let source = injections[source]
        injections.append(Injection(strategy: strategy, instance: real.buildReader(prefix, of: source)))
      default: break
      }
    }
    self.injections = injections
    self.real = real
    self.random = random
  }

  /// Runs `steps` random operations, checking after each which instances are alive.
  func run(steps: Int) {
    for _ in 0..<steps where failure == nil {
      let operation = randomOperation()
      apply(operation)
      operations += 1
      let mismatches = aliveMismatches()
      if !mismatches.isEmpty {
        fail("after \(operation): alive differs for \(mismatches)")
      }
    }
  }

  private func fail(_ message: String) {
    guard failure == nil else { return }
    failure = message
    Issue.record("seed \(seed), operation \(operations): \(message)")
  }

  private func randomOperation() -> Operation {
    let injection = Int.random(in: 0..<Self.injectionCount, using: &random)
    let strategy = ([nil] + strategies).randomElement(using: &random) ?? nil
    let consumer = consumers.isEmpty ? nil : Int.random(in: 0..<consumers.count, using: &random)
    switch (Int.random(in: 0..<100, using: &random), consumer) {
    case (0..<7, _): return .pushInstance(injection, strategy)
    case (7..<14, _): return .pushTransform(injection, strategy)
    case (14..<17, _): return .pushDelegate
    case (17..<26, _): return .rollback(injection)
    case (26..<28, _): return .rollbackAll(injection)
    case (28..<31, _): return .endSession
    case (31..<35, _) where worlds.count < 2:
      let steps = Int.random(in: 1..<16, using: &random)
      let scopes: [Operation.Scope] = [
        .isolated, .instance(injection, strategy), .transform(injection, strategy), .delegate,
      ]
      return .scope(scopes.randomElement(using: &random) ?? .isolated, steps: steps)
    case (_, nil), (31..<48, _): return .createConsumer(injection)
    case (48..<64, let consumer?): return .read(consumer)
    case (64..<74, let consumer?): return .readInner(consumer)
    case (74..<79, let consumer?): return .assign(consumer)
    case (79..<84, let consumer?): return .reset(consumer)
    case (_, let consumer?): return .drop(consumer)
    }
  }

  private func apply(_ operation: Operation) {
    let real = real
    switch operation {
    case .pushInstance(let index, let strategy):
      let prefix = newPrefix("L")
      injections[index].override(with: real.build(prefix), strategy: strategy)
      push(.instance(prefix), strategy, on: index)
    case .pushTransform(let index, let strategy):
      let prefix = newPrefix("T")
      injections[index].override(with: real.decorate(prefix), strategy: strategy)
      push(.transform(prefix), strategy, on: index)
    case .pushDelegate:
      injections[0].override(with: injections[1])
      push(.delegate, .onDemand, on: 0)
    case .rollback(let index):
      injections[index].rollbackOverride()
      let count = stackCount(of: index)
      if count > 0 { pop(from: count - 1, of: index) }
    case .rollbackAll(let index):
      injections[index].rollbackAllOverrides()
      if stackCount(of: index) > 0 { pop(from: 0, of: index) }
    case .scope(let scope, let steps):
      inScope(scope) { run(steps: steps) }
    case .createConsumer(let index):
      consumers.append((Consumer(injections[index]), index, nil, remembered()))
    case .read(let consumer):
      read(consumer, after: operation)
    case .readInner(let consumer):
      let held = read(consumer, after: operation)
      guard var reading = inner[held] else { return }
      let expected = reading.held ?? resolve(reading.injection, remembering: reading.world)
      reading.held = expected
      reading.world = nil
      inner[held] = reading
      let actual = consumers[consumer].real.service.inner?.service.name
      if actual != expected { fail("\(operation) read \(actual ?? "nothing") through it, expected \(expected)") }
    case .assign(let consumer):
      let name = nextName("local")
      consumers[consumer].real.service = real.track(Tracked(name))
      consumers[consumer].held = name
    case .reset(let consumer):
      consumers[consumer].real.$service.reset()
      consumers[consumer].held = nil
    case .drop(let consumer):
      consumers.remove(at: consumer)
    case .endSession:
      session.end()
      let ended = endGeneration()
      #if DEBUG
      if ended, let world = worlds.last, !world.config.isTest {
        world.config.isPinned = true
      }
      #endif
    }
  }

  /// Reads `consumer`, compares with the model, and returns what the model expects.
  @discardableResult
  private func read(_ consumer: Int, after operation: Operation) -> String {
    let expected =
      consumers[consumer].held ?? resolve(consumers[consumer].injection, remembering: consumers[consumer].world)
    if consumers[consumer].held == nil {
      consumers[consumer].world = nil
    }
    consumers[consumer].held = expected
    let actual = consumers[consumer].real.service.name
    if actual != expected { fail("\(operation) read \(actual), expected \(expected)") }
    return expected
  }

  /// Runs `body` in the scope both sides open: a new world, with its override, if any.
  private func inScope(_ scope: Operation.Scope, _ body: () -> Void) {
    let real = real
    let parent = worlds.last?.config
    // A test world opened outside every test has stacks of its own; the worlds inside it share
    // them. What the test left pushed stays with the configurations that remember it.
    let opensTest = test == nil && { if case .isolated = scope { true } else { false } }()
    let test = opensTest ? ModelTest(stacks: Array(repeating: [], count: Self.injectionCount)) : test
    func open(_ override: (injection: Int, layer: ModelLayer)?) {
      worlds.append(ModelWorld(config: ModelConfig(parent: parent, override: override, test: test)))
    }
    switch scope {
    case .isolated:
      open(nil)
      withIsolatedInjections(operation: body)
    case .instance(let index, let strategy):
      let prefix = newPrefix("S")
      open((index, scopedLayer(.instance(prefix), strategy, of: index)))
      injections[index].withOverride(real.build(prefix), strategy: strategy, operation: body)
    case .transform(let index, let strategy):
      let prefix = newPrefix("U")
      open((index, scopedLayer(.transform(prefix), strategy, of: index)))
      injections[index].withOverride(real.decorate(prefix), strategy: strategy, operation: body)
    case .delegate:
      open((0, scopedLayer(.delegate, .onDemand, of: 0)))
      injections[0].withOverride(injections[1], operation: body)
    }
    let world = worlds.removeLast()
    if world.config.isPinned {
      pinned.append(world)
    }
  }

  /// The configuration of the innermost open world, which a consumer made now remembers.
  private func remembered() -> ModelConfig? {
    worlds.last?.config
  }

  /// What a consumer of `injection` made in a world of `config` (`nil`: outside every world)
  /// gets on its first read: in the innermost world if that is `config`'s or nested in it, else
  /// in a world made again from `config`, whose storage is new.
  private func resolve(_ injection: Int, remembering config: ModelConfig?) -> String {
    guard let config, !(worlds.last?.config.isWithin(config) ?? false) else { return resolve(injection) }
    if let alive = pinned.firstIndex(where: { $0.config === config }) {
      (suspended, worlds) = (worlds, [pinned[alive]])
      defer { (pinned[alive], worlds, suspended) = (worlds[0], suspended, []) }
      return resolve(injection)
    }
    (suspended, worlds) = (worlds, [ModelWorld(config: config, isMadeAgain: true)])
    defer { (worlds, suspended) = (suspended, []) }
    return resolve(injection)
  }

  /// The names whose real instance is alive when the model says it is dead, or the reverse.
  private func aliveMismatches() -> [String] {
    let alive = aliveNames()
    return real.watched.filter { name, reference in (reference.object != nil) != alive.contains(name) }.keys.sorted()
  }

  // MARK: Model side

  private struct ModelLayer {
    enum Kind {
      case instance(String)
      case transform(String)
      case delegate
      /// Builds an instance that reads injection `on` through a consumer as it is built.
      case dependent(String, on: Int)
      /// Builds an instance that holds a consumer of injection `of`, read later.
      case reader(String, of: Int)
    }
    /// Tells the layer's storage apart in each world.
    let id: Int
    let kind: Kind
    let strategy: Strategy
    /// The epoch of the push that made this layer (0 for a published one).
    var pushEpoch = 0
    /// What the global world stores for this layer.
    var slot = ModelSlot()
    /// The epoch when the global world stored it.
    var storedEpoch = 0
  }

  private struct ModelSlot {
    var kept: String?
    var shared: String?
    /// The session generations the instance belongs to.
    var generations: Set<Int> = []
    /// For a slot of a test world, the test's epoch when it stored.
    var storedEpoch = 0
  }

  /// A world's configuration: the enclosing world's, its override, if any, and its test's
  /// stacks, if it is a test world's; and what its ended storages kept, alive elsewhere.
  private final class ModelConfig {
    let parent: ModelConfig?
    let override: (injection: Int, layer: ModelLayer)?
    let test: ModelTest?
    /// Whether its world outlives its scope; see `System.pinned`.
    var isPinned = false
    /// What its worlds stored, by layer, and the test's rollbacks then: found again by a world
    /// made again if it is alive and the test rolled nothing back since.
    var remnants: [Int: (name: String, pops: Int)] = [:]

    init(parent: ModelConfig?, override: (injection: Int, layer: ModelLayer)?, test: ModelTest?) {
      (self.parent, self.override, self.test) = (parent, override, test)
    }

    var isTest: Bool { test != nil }

    /// Whether this is `other` or nested in it.
    func isWithin(_ other: ModelConfig) -> Bool {
      self === other || parent?.isWithin(other) == true
    }
  }

  /// An open world: its configuration, and its own storage, by layer.
  private struct ModelWorld {
    let config: ModelConfig
    /// Whether the storage was made again for a consumer that read after its world ended.
    var isMadeAgain = false
    var slots: [Int: ModelSlot] = [:]
    /// The world's current generation of the session, if one began.
    var generation: Int?
  }

  /// A test's override stacks, each injection's bottom first, and its epoch.
  private final class ModelTest {
    var stacks: [[ModelLayer]]
    var epoch = 0
    /// How many rollbacks there were.
    var pops = 0

    init(stacks: [[ModelLayer]]) {
      self.stacks = stacks
    }
  }

  /// The consumer an instance holds: of which injection, made in which world, and what it
  /// resolved, if it has.
  private struct Inner {
    let injection: Int
    var world: ModelConfig?
    var held: String?
  }

  /// Where a layer sits: the override of a world's configuration, with its layer, or an index of
  /// the test's stack or of the global stack.
  private enum Position {
    case scoped(ModelConfig, ModelLayer)
    case tested(Int)
    case global(Int)
  }

  private func newPrefix(_ letter: String) -> String {
    defer { nextLayer += 1 }
    return "\(letter)\(nextLayer)"
  }

  private func scopedLayer(_ kind: ModelLayer.Kind, _ strategy: Strategy?, of index: Int) -> ModelLayer {
    ModelLayer(id: newLayerID(), kind: kind, strategy: strategy ?? model[index][0].strategy)
  }

  private func newLayerID() -> Int {
    defer { nextLayer += 1 }
    return nextLayer
  }

  /// Pushes on the test's stack in a test world, else on the global stack.
  private func push(_ kind: ModelLayer.Kind, _ strategy: Strategy?, on index: Int) {
    let strategy = strategy ?? model[index][0].strategy
    if let test {
      test.epoch += 1
      let layer = ModelLayer(id: newLayerID(), kind: kind, strategy: strategy, pushEpoch: test.epoch)
      test.stacks[index].append(layer)
      return
    }
    epoch += 1
    model[index].append(ModelLayer(id: newLayerID(), kind: kind, strategy: strategy, pushEpoch: epoch))
  }

  /// How many overrides of `injection` the stack that a rollback pops holds: the test's in a
  /// test world, else the global one.
  private func stackCount(of injection: Int) -> Int {
    test.map { $0.stacks[injection].count } ?? model[injection].count - 1
  }

  /// Pops the overrides of `injection` from `index` up (0 is the first pushed), on the test's
  /// stack in a test world, else on the global stack: rollback is exact.
  ///
  /// Forgets every instance that the stack's worlds (the test's, or the global one) stored since
  /// the first of them was pushed. The worlds of other scopes keep what they stored, but for what
  /// the popped layers built: nothing resolves from them again.
  private func pop(from index: Int, of popped: Int) {
    let layers = test.map { Array($0.stacks[popped][index...]) } ?? Array(model[popped][(index + 1)...])
    let since = layers[0].pushEpoch
    for layer in layers {
      for world in worlds.indices {
        worlds[world].slots[layer.id] = nil
      }
      for world in pinned.indices {
        pinned[world].slots[layer.id] = nil
      }
    }
    if let test {
      test.pops += 1
      test.stacks[popped].removeSubrange(index...)
      for world in worlds.indices where worlds[world].config.isTest {
        worlds[world].slots = worlds[world].slots.filter { $0.value.storedEpoch < since }
      }
      return
    }
    model[popped].removeSubrange((index + 1)...)
    for injection in model.indices {
      for layer in model[injection].indices where model[injection][layer].storedEpoch >= since {
        model[injection][layer].slot = ModelSlot()
      }
    }
  }

  private func nextName(_ prefix: String) -> String {
    modelCounters[prefix, default: 0] += 1
    return "\(prefix)#\(modelCounters[prefix, default: 0])"
  }

  /// The instances that consumers, the global world and the open worlds hold, and what those
  /// hold through their own consumers.
  private func aliveNames() -> Set<String> {
    var pending = consumers.compactMap(\.held) + model.joined().compactMap(\.slot.kept)
    pending += (worlds + suspended + pinned).flatMap { $0.slots.values.compactMap(\.kept) }
    var alive: Set<String> = []
    while let name = pending.popLast() {
      if alive.insert(name).inserted, let held = inner[name]?.held {
        pending.append(held)
      }
    }
    return alive
  }

  /// The top of `injection`'s configuration in the innermost open world, among the scoped
  /// overrides of `config` and the configurations around it: a scoped override, else the top of
  /// the test's stack in a test world, else the top of the global stack.
  private func top(_ injection: Int, within config: ModelConfig?) -> Position {
    var next = config
    while let config = next {
      if let override = config.override, override.injection == injection {
        return .scoped(config, override.layer)
      }
      next = config.parent
    }
    if let test, !test.stacks[injection].isEmpty {
      return .tested(test.stacks[injection].count - 1)
    }
    return .global(model[injection].count - 1)
  }

  private func layer(_ injection: Int, at position: Position) -> ModelLayer {
    switch position {
    case .scoped(_, let layer): layer
    case .tested(let index): test?.stacks[injection][index] ?? model[injection][0]
    case .global(let index): model[injection][index]
    }
  }

  private func beneath(_ position: Position, of injection: Int) -> Position {
    switch position {
    case .scoped(let config, _): top(injection, within: config.parent)
    case .tested(let index): index > 0 ? .tested(index - 1) : .global(model[injection].count - 1)
    case .global(let index): .global(index - 1)
    }
  }

  /// What a new consumer of `injection` gets in the innermost open world.
  private func resolve(_ injection: Int) -> String {
    let position = top(injection, within: worlds.last?.config)
    let layer = layer(injection, at: position)
    if case .delegate = layer.kind {
      return resolve(1)
    }
    let slot = worlds.last.map { $0.slots[layer.id] ?? ModelSlot() } ?? layer.slot
    switch layer.strategy {
    case .singleton, .session:
      if let kept = slot.kept {
        note(slot.generations)
        return kept
      }
    case .shared:
      if let shared = slot.shared, aliveNames().contains(shared) {
        note(slot.generations)
        return shared
      }
    case .onDemand:
      let (name, generations) = build(injection, at: position)
      note(generations)
      return name
    }
    // A storage made again finds what an ended one kept, if it is alive elsewhere.
    if let world = worlds.last, world.isMadeAgain, layer.strategy != .session(session),
      let (name, pops) = world.config.remnants[layer.id], pops == (test?.pops ?? 0), aliveNames().contains(name)
    {
      store(name, for: layer, at: position, of: injection, generations: [])
      return name
    }
    var (name, generations) = build(injection, at: position)
    if case .session = layer.strategy {
      generations.insert(currentGeneration())
    }
    store(name, for: layer, at: position, of: injection, generations: generations)
    note(generations)
    return name
  }

  /// A new instance from the layer at `position`, with the generations its build resolved.
  private func build(_ injection: Int, at position: Position) -> (String, Set<Int>) {
    frames.append([])
    let name = make(injection, at: position)
    return (name, frames.removeLast())
  }

  /// Notes, for the build in progress, that it resolved an instance of `generations`.
  private func note(_ generations: Set<Int>) {
    if !frames.isEmpty {
      frames[frames.count - 1].formUnion(generations)
    }
  }

  /// The session's current generation in the innermost world, begun now if it has none.
  private func currentGeneration() -> Int {
    if let generation = worlds.isEmpty ? globalGeneration : worlds[worlds.count - 1].generation {
      return generation
    }
    lastGeneration += 1
    if worlds.isEmpty {
      globalGeneration = lastGeneration
    } else {
      worlds[worlds.count - 1].generation = lastGeneration
    }
    return lastGeneration
  }

  /// Ends the session's generation in the innermost world: every slot, in any world, whose
  /// instance belongs to it forgets it.
  private func endGeneration() -> Bool {
    let ended: Int
    if worlds.isEmpty {
      guard let generation = globalGeneration else { return false }
      (ended, globalGeneration) = (generation, nil)
    } else {
      guard let generation = worlds[worlds.count - 1].generation else { return false }
      (ended, worlds[worlds.count - 1].generation) = (generation, nil)
    }
    for injection in model.indices {
      for layer in model[injection].indices where model[injection][layer].slot.generations.contains(ended) {
        model[injection][layer].slot = ModelSlot()
      }
    }
    for world in worlds.indices {
      worlds[world].slots = worlds[world].slots.filter { !$0.value.generations.contains(ended) }
    }
    for world in pinned.indices {
      pinned[world].slots = pinned[world].slots.filter { !$0.value.generations.contains(ended) }
    }
    return true
  }

  private func store(
    _ name: String, for layer: ModelLayer, at position: Position, of injection: Int, generations: Set<Int>
  ) {
    var slot = layer.strategy != .shared ? ModelSlot(kept: name) : ModelSlot(shared: name)
    slot.generations = generations
    guard worlds.isEmpty else {
      slot.storedEpoch = test?.epoch ?? 0
      worlds[worlds.count - 1].slots[layer.id] = slot
      if generations.isEmpty {
        worlds[worlds.count - 1].config.remnants[layer.id] = (name, test?.pops ?? 0)
      }
      return
    }
    guard case .global(let index) = position else { return }
    model[injection][index].slot = slot
    model[injection][index].storedEpoch = epoch
  }

  /// A new instance from the layer at `position`, never a stored one.
  private func make(_ injection: Int, at position: Position) -> String {
    switch layer(injection, at: position).kind {
    case .instance(let prefix):
      return nextName(prefix)
    case .transform(let prefix):
      return "\(prefix)(\(make(injection, at: beneath(position, of: injection))))"
    case .delegate:
      return make(1, at: top(1, within: worlds.last?.config))
    case .dependent(let prefix, let source):
      // Its consumer is made in the world of the build, and read there at once.
      _ = remembered()
      let read = resolve(source)
      let name = "\(nextName(prefix))[\(read)]"
      inner[name] = Inner(injection: source, held: read)
      return name
    case .reader(let prefix, let source):
      let name = nextName(prefix)
      inner[name] = Inner(injection: source, world: remembered())
      return name
    }
  }
}

/// The real side's factories: they name each instance they build and watch it.
@MainActor
private final class Registry {
  private var counters: [String: Int] = [:]
  private(set) var watched: [String: WeakTracked] = [:]

  func build(_ prefix: String) -> Tracked {
    track(Tracked(nextName(prefix)))
  }

  /// A decorator that wraps the name of the instance it receives, and drops the instance.
  func decorate(_ prefix: String) -> @MainActor (Tracked) -> Tracked {
    { [self] inner in track(Tracked("\(prefix)(\(inner.name))")) }
  }

  /// An instance that reads `source` through a consumer it holds, as it is built.
  func buildDependent(_ prefix: String, on source: Injection<Tracked>) -> Tracked {
    let consumer = Consumer(source)
    let read = consumer.service.name
    return track(Tracked("\(nextName(prefix))[\(read)]", inner: consumer))
  }

  /// An instance that holds a consumer of `source`, read only when a test reads through it.
  func buildReader(_ prefix: String, of source: Injection<Tracked>) -> Tracked {
    track(Tracked(nextName(prefix), inner: Consumer(source)))
  }

  func track(_ instance: Tracked) -> Tracked {
    watched[instance.name] = WeakTracked(object: instance)
    return instance
  }

  private func nextName(_ prefix: String) -> String {
    counters[prefix, default: 0] += 1
    return "\(prefix)#\(counters[prefix, default: 0])"
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
