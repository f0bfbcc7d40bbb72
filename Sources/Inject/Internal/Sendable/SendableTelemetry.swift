/// What sendable injections tell the installed telemetry, and the debug warnings, from any
/// thread.
///
/// The telemetry is the main actor's: events are recorded there, now if the caller runs there,
/// else in a main-actor task, in the order they happened on each thread. Resolutions report
/// only while a telemetry is installed; misuses are reported always, as debug warnings when no
/// telemetry is installed.
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

  /// Records that `kind` happened to `injection` at `location`: if a telemetry is installed, or
  /// if it is a misuse.
  static func record<T>(_ kind: InjectionEvent.Kind, _ injection: SendableInjection<T>, at location: CodeLocation) {
    guard kind.isMisuse || isActive else { return }
    let (label, publishedAt) = ("SendableInjection<\(T.self)>", injection.location)
    MainActorHop.run {
      Telemetry.record(kind, injection: label, publishedAt: publishedAt, at: location)
    }
  }
}
