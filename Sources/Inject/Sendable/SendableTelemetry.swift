/// How the events of sendable injections reach the installed telemetry and the debug warnings,
/// from any thread.
///
/// The telemetry is the main actor's: an event is recorded there at once if the caller runs
/// there, else in a main-actor task, so that the events of one thread arrive in the order they
/// happened. Resolutions are reported only while a telemetry is installed; misuses always, as
/// debug warnings when none is installed.
@usableFromInline
enum SendableTelemetry {
  /// Whether a telemetry is installed: ``Telemetry``'s flag, for any thread.
  private static let installed = Locked(false)

  /// Whether a telemetry is installed now.
  @usableFromInline
  static var isActive: Bool { installed.withLock { $0 } }

  /// Notes, on the main actor, whether a telemetry is installed.
  @MainActor
  static func noteInstalled(_ isInstalled: Bool) {
    let changed = installed.withLock { flag in
      defer { flag = isInstalled }
      return flag != isInstalled
    }
    guard changed else { return }
    if isInstalled {
      SendableFastPath.increment()
    } else {
      SendableFastPath.decrement()
    }
  }

  /// Records `kind` for an injection of door `D`'s kind published at `publishedAt`, at
  /// `location`: if a telemetry is installed, or if it is a misuse.
  static func record<D: DoorTypes>(
    _ kind: InjectionEvent.Kind, of door: D.Type, publishedAt: CodeLocation, at location: CodeLocation
  ) {
    guard kind.isMisuse || isActive else { return }
    // What the door names, not the door: a metatype is not `Sendable`.
    let (type, injectionKind): (any Any.Type, InjectionKind) = (D.Value.self, D.kind)
    deliver { Telemetry.record(kind, instances: type, of: injectionKind, publishedAt: publishedAt, at: location) }
  }

  /// Records `kind` as ``record(_:of:publishedAt:at:)`` does, except that with no telemetry
  /// installed its debug warning is shown from the calling thread: for a report that must not
  /// wait for the main actor, which the wait it reports may be blocking (a factory running there
  /// that waits for work that resolves the injection).
  ///
  /// An installed telemetry, which records on the main actor, still receives it there.
  static func recordWithoutWaiting<D: DoorTypes>(
    _ kind: InjectionEvent.Kind, of door: D.Type, publishedAt: CodeLocation, at location: CodeLocation
  ) {
    guard !isActive else {
      record(kind, of: door, publishedAt: publishedAt, at: location)
      return
    }
    if DebugWarnings.areShown {
      DebugWarnings.show(
        InjectionEvent(kind: kind, instances: D.Value.self, of: D.kind, publishedAt: publishedAt, location: location))
    }
  }

  /// Records `kind` for what `injection` names (a family's member, or a family), published at
  /// `publishedAt`, at `location`, as ``record(_:of:publishedAt:at:)`` does for an injection.
  static func record(
    _ kind: InjectionEvent.Kind, injection: String, publishedAt: CodeLocation, at location: CodeLocation
  ) {
    guard kind.isMisuse || isActive else { return }
    deliver { Telemetry.record(kind, injection: injection, publishedAt: publishedAt, at: location) }
  }

  /// Runs `record`, which records an event (checked first, so that no closure is made for one
  /// that is not recorded), on the main actor, with the capture of debug warnings of the code
  /// that recorded it, which the hop's task would not inherit otherwise.
  private static func deliver(_ record: @escaping @MainActor @Sendable () -> Void) {
    let capture = DebugWarnings.capture
    MainActorHop.run {
      DebugWarnings.$capture.withValue(capture) { record() }
    }
  }
}
