/// A scope's world: the instances that every injection resolved inside a scope keeps there,
/// never in the global layers, and the scope's override, if it has one.
///
/// `withOverride`, `withIsolatedInjections` and the testing traits each open a new world, the
/// current task's innermost: a task-local value, so child tasks and unstructured tasks inherit
/// it for their whole life, detached tasks do not, and other tasks never see it. A world starts
/// empty and reads the global configuration live; the overrides of the enclosing worlds still
/// apply inside it.
///
/// A world is released when its scope has ended and no task that inherited it is alive, on the
/// main actor whichever task lets it go.
@MainActor
final class World {
  /// The current task's innermost world, or `nil` for the global one.
  nonisolated static var current: World? { Current.world }

  /// How many worlds are alive.
  private static var alive = 0 {
    didSet { Resolution.update() }
  }

  /// Whether any world is alive.
  ///
  /// While none is, resolution takes the fast path.
  static var isAnyAlive: Bool { alive > 0 }

  /// The world this one was opened in.
  let parent: World?
  /// The injection this world overrides, if any: an `Injection<T>`, held strongly, so that no
  /// other injection allocated at the same address can match it.
  private let overridden: (any AnyObject & Sendable)?
  /// The `Layer<T>` that `overridden` resolves from in this world and the worlds inside it.
  ///
  /// A variable only so that `deinit` can move it out; see there.
  private var layer: (any AnyObject & Sendable)?
  /// Where the instances built in this world are watched, for a leak report; shared with the
  /// worlds inside it.
  let leakWatch: LeakWatch?
  /// Whether this is a test world, where injections resolve their test value by default.
  let isTest: Bool
  /// A strict test's check, shared with the worlds inside it: told when an injection with
  /// neither a test value nor an override resolves in them.
  private let strictCheck: StrictCheck?
  /// The slots of the layers resolved in this world, by layer.
  // NB: `nonisolated(unsafe)` only so that `deinit`, which is nonisolated, can move the slots
  // out to the main actor. It is safe: every other access is from a main-actor-isolated member,
  // and `deinit` runs when nothing else can reach this world.
  private nonisolated(unsafe) var slots: [ObjectIdentifier: Entry] = [:]

  private struct Entry {
    /// The `Layer<T>`, held so that its identifier stays unique.
    let layer: AnyObject
    /// Its `InstanceSlot<T>` in this world.
    let slot: AnyObject
  }

  /// A world inside the current task's world, overriding `injection` with `layer`.
  convenience init<T>(overriding injection: Injection<T>, with layer: Layer<T>) {
    self.init(parent: .current, overridden: injection, layer: layer)
  }

  /// A world inside `parent` (`nil`: the global world) that overrides `overridden` with
  /// `layer`, or nothing.
  ///
  /// A world inside a test world is a test world too, and inherits its checks.
  init(
    parent: World?, overridden: (any AnyObject & Sendable)? = nil, layer: (any AnyObject & Sendable)? = nil,
    isTest: Bool = false, leakWatch: LeakWatch? = nil,
    reportingUntested reportUntested: (@MainActor (UntestedResolution) -> Void)? = nil
  ) {
    self.parent = parent
    self.overridden = overridden
    self.layer = layer
    self.isTest = isTest || parent?.isTest == true
    self.leakWatch = leakWatch ?? parent?.leakWatch
    self.strictCheck = reportUntested.map(StrictCheck.init) ?? parent?.strictCheck
    Self.alive += 1
  }

  /// Runs `operation` in this world.
  func run<R>(_ operation: () throws -> R) rethrows -> R {
    try Current.$world.withValue(self, operation: operation)
  }

  /// Runs the asynchronous `operation` in this world.
  func run<R>(_ operation: () async throws -> R) async rethrows -> R {
    try await Current.$world.withValue(self, operation: operation)
  }

  /// The innermost world, from this one outwards, that overrides `injection`, and its layer.
  func override<T>(of injection: Injection<T>) -> (world: World, layer: Layer<T>)? {
    var world: World? = self
    while let current = world {
      if current.overridden === injection, let layer = current.layer {
        // Only `init` stores a layer, with the `Injection<T>` it belongs to.
        return (current, unsafeDowncast(layer, to: Layer<T>.self))
      }
      world = current.parent
    }
    return nil
  }

  /// This world's slot for what `layer` builds.
  func slot<T>(for layer: Layer<T>) -> InstanceSlot<T> {
    let key = ObjectIdentifier(layer)
    if let entry = slots[key] {
      // Only this method stores under `key`, an `InstanceSlot<T>` beside its `Layer<T>`.
      return unsafeDowncast(entry.slot, to: InstanceSlot<T>.self)
    }
    let slot = InstanceSlot<T>.make()
    slots[key] = Entry(layer: layer, slot: slot)
    return slot
  }

  /// Watches `instance`, built in this world for a consumer at `location`, if it is an object
  /// and the world watches for leaks.
  func noteBuilt<T>(_ instance: T, by injection: Injection<T>, for location: CodeLocation) {
    guard let leakWatch else { return }
    let boxed = instance as Any
    guard type(of: boxed) is AnyClass else { return }
    leakWatch.built.append(.init(object: boxed as AnyObject, injection: injection.label, location: location))
  }

  /// Tells a strict test, once per injection in the test and the scopes inside it, that
  /// `injection` built its live instance here for a consumer at `location`.
  func noteUntested<T>(_ injection: Injection<T>, at location: CodeLocation) {
    guard let strictCheck, strictCheck.reported.insert(ObjectIdentifier(injection)).inserted else { return }
    strictCheck.report(UntestedResolution(injection: injection.label, location: location))
  }

  deinit {
    // Moved out, not copied: were they copied, this object would drop its own references after
    // `deinit` returns, which may be after the main actor dropped the handoff's, and so release
    // the scope's override (its value) or its layers off the main actor. The instances stored
    // in the slots, the parent world and the overridden injection take care of themselves: a
    // slot, a world and an injection each hand what they hold to the main actor.
    let (slots, layer) = (self.slots, self.layer)
    (self.slots, self.layer) = ([:], nil)
    MainActorRelease.release((consume slots, consume layer)) {
      World.alive -= 1
    }
  }
}

/// The objects built in a test's world and the worlds inside it, watched weakly, so that those
/// still alive after the test can be reported.
@MainActor
final class LeakWatch {
  /// An object built in a watched world.
  struct BuiltInstance {
    weak var object: AnyObject?
    /// The injection that built it, as diagnostics name it.
    let injection: String
    /// Where the consumer that first resolved it was declared.
    let location: CodeLocation
  }

  var built: [BuiltInstance] = []

  /// The objects built in the watched worlds that are still alive.
  var survivors: [LeakedInstance] {
    built.filter { $0.object != nil }.map { LeakedInstance(injection: $0.injection, firstResolvedAt: $0.location) }
  }
}

/// A strict test's check: the injections it reported, so that each is reported once.
@MainActor
final class StrictCheck {
  let report: @MainActor (UntestedResolution) -> Void
  var reported: Set<ObjectIdentifier> = []

  init(_ report: @escaping @MainActor (UntestedResolution) -> Void) {
    self.report = report
  }
}

/// The task-local that names the current world.
private enum Current {
  @TaskLocal static var world: World?
}
