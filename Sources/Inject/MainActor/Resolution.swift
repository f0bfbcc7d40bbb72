/// The injections building or delegating on the main actor right now, as a chain without an
/// allocation: a global names the innermost, and each of them names the one it runs inside.
@MainActor
@usableFromInline
enum Resolution {
  /// The injection whose instance is being built or delegated innermost right now, if any.
  ///
  /// A stored property with a constant initial value, so the compiler initializes it
  /// statically and reading it costs a load, with no check for lazy initialization; and
  /// `@exclusivity(unchecked)`, so that it costs no dynamic exclusivity check either. That is
  /// safe: it is isolated to the main actor, and every access is a whole load or store that
  /// runs no other code while it lasts, so no two accesses overlap.
  @usableFromInline
  @exclusivity(unchecked)
  static var innermost: Unmanaged<AnyObject>?

  /// Whether resolution must take the general path.
  ///
  /// A telemetry listens, a scope's world is alive (in any task), so the current task may
  /// resolve in it, or a build is in progress, whose resolutions note what they return
  /// (``BuildFrames``). While it is `false`, every consumer resolves from the global world, and
  /// the fast path reads nothing else.
  ///
  /// A stored `Bool` with a constant initial value, so the compiler initializes it statically
  /// and reading it costs one load, with no check for lazy initialization.
  /// `@exclusivity(unchecked)` for the same reason as ``innermost``, and as safely.
  @usableFromInline
  @exclusivity(unchecked)
  static var isGeneral = false

  /// How the current task resolves while ``isGeneral``: the fast path if it is in the global
  /// world, no telemetry listens and no build is in progress, else the general path, in its
  /// world.
  ///
  /// A consumer outside every world pays one task-local read for the worlds it is not in, while
  /// any is alive; none while the main actor knows of none alive, since then no code runs on it
  /// in a world (the rule that lets ``isGeneral`` send every consumer to the global world).
  @usableFromInline
  static var path: Path {
    let world = worldsAlive > 0 ? World.current : nil
    return world == nil && !Telemetry.isActive && !BuildFrames.isRecording ? .fast : .general(world)
  }

  /// How a resolution proceeds.
  @usableFromInline
  enum Path {
    /// The fast path: the global world, with nothing to tell a telemetry.
    case fast
    /// The general path, in a world (`nil`: the global one).
    case general(World?)
  }

  /// The reasons for the general path besides a telemetry: the worlds alive, as the main actor
  /// has learned of them, and whether a build is in progress on the main actor.
  ///
  /// Stored as ``isGeneral`` is, and as safely.
  @exclusivity(unchecked)
  private static var worldsAlive = 0
  @exclusivity(unchecked)
  private static var isBuilding = false

  /// Counts `delta` more worlds alive (``WorldNotices``).
  static func noteWorlds(_ delta: Int) {
    guard delta != 0 else { return }
    worldsAlive += delta
    update()
  }

  /// Notes that builds began on the main actor, or that the last one ended.
  ///
  /// A sendable resolution inside a main-actor build notes itself in its frame: the sendable
  /// fast path is closed meanwhile, so that it takes the general path, which does.
  static func noteBuilds(inProgress: Bool) {
    isBuilding = inProgress
    if inProgress {
      SendableFastPath.beginBuild()
    } else {
      SendableFastPath.endBuild()
    }
    update()
  }

  /// Recomputes ``isGeneral``; writes it only when it changes, which few events make it do.
  static func update() {
    let general = Telemetry.isActive || worldsAlive > 0 || isBuilding
    if isGeneral != general {
      isGeneral = general
    }
  }

  /// Stops the program: `injection` was asked for an instance while it is building one, and
  /// `innermost` is the injection that asked.
  static func cycle(at injection: some InjectionIdentity, innermost: Unmanaged<AnyObject>?) -> Never {
    if let recording = Telemetry.recording, chain(from: recording.innermost, to: injection) != nil {
      fatalError(
        "The installed telemetry resolved \(injection.label) in record(_:) while it was being built. "
          + "To fix this, resolve in record(_:) no injection that the reported resolution "
          + "is building, or resolve it later, in a Task.")
    }
    let labels = [injection.label] + (chain(from: innermost, to: injection) ?? []).map(\.label).reversed()
    CycleMessages.stopForCycle(
      labels + [injection.label], alsoBuilding: BuildChain.injections.map(\.label), ofKind: .sendable)
  }

  /// The main-actor injections building or delegating, outermost first, if the caller runs on
  /// the main actor; none elsewhere.
  ///
  /// For the message of a cycle that a sendable build found.
  nonisolated static var mainActorChainOnMainThread: [String] {
    guard MainActorRelease.isOnMainActor else { return [] }
    // Safe: the caller runs where the main actor runs (the main thread, or the main queue,
    // which runs the main actor's jobs on Linux), so the main actor's state is the calling
    // code's; `assumeIsolated` checks it again, and this only reads it, to stop the program.
    return MainActor.assumeIsolated {
      (chain(from: innermost, to: nil) ?? []).map(\.label).reversed()
    }
  }

  /// The injections from `innermost` outwards, up to `injection` and without it, if the walk
  /// reaches it.
  ///
  /// Every injection on the way is building or delegating, so its `outer` is current.
  /// With no `injection`, all of them.
  private static func chain(
    from innermost: Unmanaged<AnyObject>?, to injection: (any InjectionIdentity)?
  ) -> [any InjectionIdentity]? {
    var chain: [any InjectionIdentity] = []
    var next = innermost
    while let identity = next?.takeUnretainedValue() as? any InjectionIdentity {
      if identity === injection {
        return chain
      }
      chain.append(identity)
      next = identity.outer
    }
    return injection == nil ? chain : nil
  }
}

/// What diagnostics need to know of an injection, whatever its type.
@MainActor
protocol InjectionIdentity: AnyObject {
  /// The injection's type and where it was published, such as
  /// `Injection<Service> (ServicePackage/Services.swift:12)`.
  var label: String { get }

  /// While the injection is building or delegating, the injection it runs inside, if any.
  var outer: Unmanaged<AnyObject>? { get }
}
