import _InjectShims

/// An injection's global override stack, and what it notes of the global world's resolutions.
///
/// The same for both kinds of injection, so that every operation on it is written here once,
/// a family's member's with its family's overrides beneath its own. Each kind keeps it under
/// its own guard (``Door/withGlobalStack(of:_:)``): the main actor's cell, or the sendable
/// injection's lock. Every change is counted (``StackChanges``), under that guard, once made.
@usableFromInline
struct GlobalStack: Sendable {
  /// The layers, bottom first: `Layer<D>`s of the injection's door, erased, so that the engine,
  /// which is not specialized for the door, handles the array with no generic metadata.
  ///
  /// A family's member has its family's overrides at the bottom (``familyDepth``), beneath its
  /// own.
  @usableFromInline
  var layers: [any AnyObject & Sendable] = []
  /// How many of ``layers``, at the bottom, are the overrides of the injection's family.
  private(set) var familyDepth = 0
  /// What the injection notes of the global world's resolutions, for its warnings.
  @usableFromInline
  var notes = GlobalNotes()

  @usableFromInline
  init() {}

  /// How many overrides of its own the injection has: its family's are not counted.
  var ownDepth: Int { layers.count - familyDepth }

  /// Whether a resolution of the global world, reading this stack of an injection published
  /// with `publication`, gets the published layer and has nothing to note: nothing is pushed,
  /// and the published layer stores, or builds for each consumer and noted the first already.
  @inlinable
  func resolvesFromPublished<D: DoorTypes>(of publication: Publication<D>) -> Bool {
    layers.isEmpty && (publication.published.onDemandFactory == nil || notes.firstResolvedAt != nil)
  }

  /// The layers and how many of them are the family's, or `nil` if there is none.
  var snapshot: (layers: [any AnyObject & Sendable], familyDepth: Int)? {
    layers.isEmpty ? nil : (layers, familyDepth)
  }

  /// Pushes the layer that `make` makes at the depth it is given (1 for the injection's first
  /// override of its own); returns that depth.
  mutating func push(_ make: (_ depth: Int) -> any AnyObject & Sendable) -> Int {
    defer { StackChanges.count() }
    let depth = ownDepth + 1
    layers.append(make(depth))
    return depth
  }

  /// Pops the injection's own overrides until `leaving(count)` of the `count` are left (its
  /// family's, beneath, stay); returns the popped layers, bottom first, and how many are left.
  mutating func pop(leaving: (Int) -> Int) -> (popped: [any AnyObject & Sendable], left: Int) {
    defer {
      notes.popped(to: layers.count)
      StackChanges.count()
    }
    return layers.pop(leaving: leaving, above: familyDepth)
  }

  /// Puts `layer`, a family override's, above the family's other overrides, beneath the
  /// injection's own.
  mutating func pushFamilyLayer(_ layer: any AnyObject & Sendable) {
    layers.insert(layer, at: familyDepth)
    familyDepth += 1
    StackChanges.count()
  }

  /// Takes the topmost family override's layer off; returns it.
  mutating func popFamilyLayer() -> (any AnyObject & Sendable)? {
    guard familyDepth > 0 else { return nil }
    familyDepth -= 1
    defer {
      notes.popped(to: layers.count)
      StackChanges.count()
    }
    return layers.remove(at: familyDepth)
  }

  /// Empties the stack, for an injection's release; returns what it held.
  mutating func takeAll() -> (layers: [any AnyObject & Sendable], familyDepth: Int) {
    defer {
      (layers, familyDepth) = ([], 0)
      StackChanges.count()
    }
    return (layers, familyDepth)
  }
}

/// How many times an override stack changed, in every thread: every push onto or pop from an
/// injection's global stack, or a test's stack of an injection or of a family, counted under the
/// stack's guard once made.
///
/// What a resolution read of the stacks holds while the count is the one it read before it read
/// them: a world's part keeps the top layer and slot that its last resolution of an injection
/// found, with that count, for the next resolution of the same injection
/// (``WorldPart/resolved(by:at:)``).
enum StackChanges {
  /// The count now, read with acquire ordering: read before the stacks.
  static var now: UInt64 { _inject_stack_changes_now() }

  /// Counts a change made, with release ordering.
  static func count() { _inject_count_stack_change() }
}

extension Array {
  /// Pops the elements above the first `floor` until `leaving(count)` of the `count` there are
  /// left; returns the popped ones, bottom first, and how many are left above the floor.
  ///
  /// A `leaving` that asks for more than there are, or fewer than none, pops nothing or all.
  mutating func pop(leaving: (Int) -> Int, above floor: Int = 0) -> (popped: [Element], left: Int) {
    let count = self.count - floor
    guard count > 0 else { return ([], 0) }
    let left = Swift.min(Swift.max(0, leaving(count)), count)
    defer { removeSubrange((floor + left)...) }
    return (Array(self[(floor + left)...]), left)
  }
}
