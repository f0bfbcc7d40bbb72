/// An injection's global override stack, and what it notes of the global world's resolutions.
///
/// The same for both kinds of injection, so that every operation on it is written here once,
/// a family's member's with its family's overrides beneath its own. Each kind keeps it under
/// its own guard (``Door/withGlobalStack(of:_:)``): the main actor's cell, or the sendable
/// injection's lock.
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

  /// The layers and how many of them are the family's, or `nil` if there is none.
  var snapshot: (layers: [any AnyObject & Sendable], familyDepth: Int)? {
    layers.isEmpty ? nil : (layers, familyDepth)
  }

  /// Pushes the layer that `make` makes at the depth it is given (1 for the injection's first
  /// override of its own); returns that depth.
  mutating func push(_ make: (_ depth: Int) -> any AnyObject & Sendable) -> Int {
    let depth = ownDepth + 1
    layers.append(make(depth))
    return depth
  }

  /// Pops the injection's own overrides until `leaving(count)` of the `count` are left (its
  /// family's, beneath, stay); returns the popped layers, bottom first, and how many are left.
  mutating func pop(leaving: (Int) -> Int) -> (popped: [any AnyObject & Sendable], left: Int) {
    defer { notes.popped(to: layers.count) }
    return layers.pop(leaving: leaving, above: familyDepth)
  }

  /// Puts `layer`, a family override's, above the family's other overrides, beneath the
  /// injection's own.
  mutating func pushFamilyLayer(_ layer: any AnyObject & Sendable) {
    layers.insert(layer, at: familyDepth)
    familyDepth += 1
  }

  /// Takes the topmost family override's layer off; returns it.
  mutating func popFamilyLayer() -> (any AnyObject & Sendable)? {
    guard familyDepth > 0 else { return nil }
    familyDepth -= 1
    defer { notes.popped(to: layers.count) }
    return layers.remove(at: familyDepth)
  }

  /// Empties the stack, for an injection's release; returns what it held.
  mutating func takeAll() -> (layers: [any AnyObject & Sendable], familyDepth: Int) {
    defer { (layers, familyDepth) = ([], 0) }
    return (layers, familyDepth)
  }
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
