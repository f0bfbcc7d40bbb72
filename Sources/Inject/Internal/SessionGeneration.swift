/// One generation of one session in one world: what began at the first resolution of the
/// session's injections there, and ends with ``InjectionSession/end(fileID:line:)``.
///
/// It lists, weakly, every slot whose instance belongs to it: the slots of the session's
/// injections, and the slots of every instance whose build resolved one of theirs, directly or
/// through nested builds (``BuildDependencies``). Ending it empties each slot that still holds
/// such an instance: a slot that stored another instance since lists its own generations.
@MainActor
final class SessionGeneration {
  let session: InjectionSession
  /// The slots that stored an instance belonging to this generation.
  private var members: [Member] = []
  /// The session's own instances built in this generation that a slot let go of (at the end, or
  /// in a rollback), watched for survivors.
  ///
  /// Watched only once let go: a weak reference moves an object's reference counts to a side
  /// table, which would make every retain of an instance still handed out slower.
  private(set) var built: [BuiltInstance] = []
  /// What the survivor report names of each listed slot that holds one of the session's own
  /// instances, by the slot's identifier.
  private var owners: [ObjectIdentifier: Owner] = [:]
  /// Where the generation ended, once it has.
  private(set) var endedAt: CodeLocation?
  /// Whether the generation has ended.
  var isEnded: Bool { endedAt != nil }
  /// When `members` or `built` grows to this size, the entries of released objects go.
  private var pruneAt = 64

  private struct Member {
    weak var slot: (any EmptiableSlot)?
  }

  /// An instance of the session's injections, watched through a weak reference.
  struct BuiltInstance {
    weak var object: AnyObject?
    /// The injection's label: `Injection<AccountStore> (Account/AccountStore.swift:12)`.
    var injection: String { owner.injection }
    var type: any Any.Type { owner.type }
    var publishedAt: CodeLocation { owner.publishedAt }
    var strategy: Strategy { owner.strategy }
    let owner: Owner
  }

  /// The injection whose layer built one of the session's own instances, and its strategy.
  struct Owner {
    /// The injection's label: `Injection<AccountStore> (Account/AccountStore.swift:12)`.
    let injection: String
    let type: any Any.Type
    let publishedAt: CodeLocation
    let strategy: Strategy

    @MainActor
    init<T>(_ injection: Injection<T>, strategy: Strategy) {
      self.injection = injection.label
      self.type = T.self
      self.publishedAt = injection.location
      self.strategy = strategy
    }
  }

  init(of session: InjectionSession) {
    self.session = session
  }

  /// Lists `slot`, which stored an instance that belongs to this generation: one of the
  /// session's own, built by `owner`, or one built with them.
  func add(_ slot: some EmptiableSlot, owner: Owner? = nil) {
    members.append(Member(slot: slot))
    if let owner {
      owners[ObjectIdentifier(slot)] = owner
    }
    if members.count >= pruneAt {
      // Each slot once, and only those that still hold an instance of this generation.
      var seen: Set<ObjectIdentifier> = []
      members.removeAll { member in
        guard let slot = member.slot, slot.generations.contains(where: { $0 === self }) else { return true }
        return !seen.insert(ObjectIdentifier(slot)).inserted
      }
      owners = owners.filter { seen.contains($0.key) }
      built.removeAll { $0.object == nil }
      pruneAt = max(64, members.count * 2, built.count * 2)
    }
  }

  /// Empties `slot`, and watches the instance it kept if it was one of its generation's own.
  ///
  /// Returns the instance, for the caller to release once no state is being changed any more.
  static func empty(_ slot: some EmptiableSlot) -> Any? {
    let generation = slot.ownGeneration
    let kept = slot.emptyErased()
    if let generation, let kept, type(of: kept) is AnyClass, let owner = generation.owners[ObjectIdentifier(slot)] {
      generation.built.append(BuiltInstance(object: kept as AnyObject, owner: owner))
    }
    return kept
  }

  /// Ends the generation at `location`.
  ///
  /// Empties every listed slot that still holds an instance of it. Returns what the slots kept,
  /// for the caller to release once no state is being changed any more.
  func end(at location: CodeLocation) -> [Any] {
    endedAt = location
    var released: [Any] = []
    for member in members {
      guard let slot = member.slot, slot.generations.contains(where: { $0 === self }) else { continue }
      if let kept = Self.empty(slot) {
        released.append(kept)
      }
    }
    (members, owners) = ([], [:])
    built.removeAll { $0.object == nil }
    return released
  }

  /// The instances of this ended generation that are still alive, with what names each.
  var survivors: [(object: AnyObject, instance: BuiltInstance)] {
    built.compactMap { instance in instance.object.map { ($0, instance) } }
  }
}

/// One world's generations: the current one of each session resolved there, and those ended
/// there that may have survivors.
@MainActor
struct SessionTable {
  /// The current generation of each session, by the session's identifier.
  private var current: [ObjectIdentifier: SessionGeneration] = [:]
  /// The generations ended here that may have survivors, oldest first.
  private(set) var ended: [SessionGeneration] = []

  nonisolated init() {}

  /// The current generation of `session`, begun now if there is none.
  mutating func generation(of session: InjectionSession) -> SessionGeneration {
    if let generation = current[ObjectIdentifier(session)] {
      return generation
    }
    let generation = SessionGeneration(of: session)
    current[ObjectIdentifier(session)] = generation
    BuildDependencies.sessionBegan()
    return generation
  }

  /// Removes the current generation of `session`, if there is one, to end it.
  mutating func take(_ session: InjectionSession) -> SessionGeneration? {
    current.removeValue(forKey: ObjectIdentifier(session))
  }

  /// Keeps `generation`, just ended, for survivor reports; forgets those with no survivor.
  mutating func noteEnded(_ generation: SessionGeneration) {
    ended.removeAll { $0.survivors.isEmpty }
    ended.append(generation)
  }
}

/// The generations of every session, by world.
@MainActor
enum SessionGenerations {
  /// The global world's.
  private static var global = SessionTable()

  /// Runs `body` with the generations of `world` (`nil`: the global world), which it may change.
  static func inWorld<R>(_ world: World?, _ body: (inout SessionTable) -> R) -> R {
    if let world {
      return world.withSessions(body)
    }
    return body(&global)
  }
}

/// The session generations that each build in progress resolved: a stack of frames, one per
/// build on the main actor, innermost last.
///
/// While a build is in progress and any session has begun a generation, every resolution takes
/// the general path (``Resolution``), which notes here the generations of what it returns, so that
/// an instance stored by the build lists the generations it was built with, and the frame's
/// generations pass to the build around it. A process that uses no session pays two counts per
/// build, and the frames are made only when a generation is noted.
@MainActor
enum BuildDependencies {
  /// Whether resolutions note the generations they return: a build is in progress, and a
  /// session has begun a generation.
  ///
  /// Stored properties with constant initial values, so that reading or counting one costs a
  /// load or a store, with no check for lazy initialization.
  private(set) static var isRecording = false
  /// How many builds are in progress.
  private static var depth = 0
  /// Whether any session has begun a generation in the process.
  private static var isAnySessionBegun = false
  /// The frames of the builds in progress, outermost first, made up to the innermost build that
  /// noted a generation: a build deeper than `frames` has noted none.
  private static var frames: [[SessionGeneration]] = []

  /// Opens a frame for a build that begins.
  @inline(__always)
  static func begin() {
    depth += 1
    if isAnySessionBegun && depth == 1 {
      record(true)
    }
  }

  /// Closes the innermost frame; returns its generations.
  @inline(__always)
  static func end() -> [SessionGeneration] {
    depth -= 1
    return isAnySessionBegun ? popFrame() : []
  }

  /// Closes the innermost frame, and notes its generations in the frame around it: for a build
  /// whose instance is not stored, which the build around it holds.
  @inline(__always)
  static func endPassingOn() {
    depth -= 1
    if isAnySessionBegun {
      note(popFrame())
    }
  }

  /// The frame of the build that just ended, at `depth`, if it noted any generation.
  private static func popFrame() -> [SessionGeneration] {
    if depth == 0 {
      record(false)
    }
    return frames.count > depth ? frames.removeLast() : []
  }

  /// Notes, in the innermost frame, that the build resolved an instance of `generations`.
  static func note(_ generations: [SessionGeneration]) {
    guard !generations.isEmpty, depth > 0 else { return }
    while frames.count < depth {
      frames.append([])
    }
    let innermost = depth - 1
    for generation in generations where !frames[innermost].contains(where: { $0 === generation }) {
      frames[innermost].append(generation)
    }
  }

  /// Notes that a session began a generation: builds record from now on.
  static func sessionBegan() {
    guard !isAnySessionBegun else { return }
    isAnySessionBegun = true
    if depth > 0 {
      record(true)
    }
  }

  private static func record(_ recording: Bool) {
    isRecording = recording
    Resolution.update()
  }
}
