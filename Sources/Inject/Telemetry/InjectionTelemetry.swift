/// Observes every ``InjectionEvent`` of every injection.
///
/// Install one with ``installTelemetry(_:)``, once, at launch. Its `record(_:)` runs on the main
/// actor: synchronously where the event happens, for every event that happens there (those of
/// main-actor injections, and of sendable injections resolved, overridden or rolled back on the
/// main actor); for an event of a sendable injection on another thread, in a main-actor task
/// enqueued when it happens, so that the events of one thread arrive in the order they happened.
///
/// ```swift
/// final class RecordingTelemetry: InjectionTelemetry {
///   @MainActor private(set) var events: [InjectionEvent] = []
///   func record(_ event: InjectionEvent) { events.append(event) }
/// }
/// installTelemetry(RecordingTelemetry())
/// ```
///
/// None is installed by default: resolution then checks one flag and does no formatting and no
/// allocation, and debug builds print a warning for each misuse (see ``installTelemetry(_:)``).
///
/// > Tip: To forward events to swift-log without Inject depending on it, write a three-line
/// > telemetry in your app:
/// >
/// > ```swift
/// > import Logging
/// >
/// > struct SwiftLogTelemetry: InjectionTelemetry {
/// >   let logger = Logger(label: "Inject")
/// >   func record(_ event: InjectionEvent) { logger.debug("\(event)") }
/// > }
/// > ```
public protocol InjectionTelemetry: Sendable {
  /// Records one event.
  ///
  /// - Parameter event: What happened, to which injection, and where.
  @MainActor
  func record(_ event: InjectionEvent)
}

/// Installs `telemetry` for every injection, replacing the previous one; `nil` silences them.
///
/// ```swift
/// installTelemetry(RecordingTelemetry())
/// ```
///
/// With no telemetry installed (the default), resolution takes its fast path, and debug builds
/// still print a warning for each misuse: an override pushed after the injection was resolved,
/// a rollback with nothing to roll back, and a `.shared` value kept strongly. Installing a
/// telemetry replaces those warnings; release builds print nothing.
///
/// - Parameter telemetry: The telemetry that records every event from now on, or `nil`.
@MainActor
public func installTelemetry(_ telemetry: (any InjectionTelemetry)?) {
  let previous = Telemetry.installed
  Telemetry.installed = telemetry
  // The previous telemetry is released only now that the new one is in place: its `deinit`
  // may resolve, or install another.
  withExtendedLifetime(previous) {}
}

/// The installed telemetry.
@MainActor
@usableFromInline
enum Telemetry {
  /// The installed telemetry, which only the general path of resolution reads.
  static var installed: (any InjectionTelemetry)? {
    get { box?.telemetry }
    set {
      let previous = box
      box = newValue.map(Installed.init)
      isActive = box != nil
      SendableTelemetry.noteInstalled(isActive)
      Resolution.update()
      // Released only now that the store is done: its telemetry's `deinit` may resolve, or
      // install another.
      withExtendedLifetime(previous) {}
    }
  }

  /// Whether a telemetry is installed: ``installed``'s setter keeps it.
  ///
  /// This and the statics below are stored with constant initial values, so the compiler
  /// initializes them statically and reading one costs a load, with no check for lazy
  /// initialization (the engine reads them on every resolution of its general path); and
  /// `@exclusivity(unchecked)`, so that they cost no dynamic exclusivity check either. That is
  /// safe: they are isolated to the main actor, and every access is a whole load or store that
  /// runs no other code while it lasts (a store to ``box`` releases nothing: ``installed``'s
  /// setter holds the box it replaces until the store is done).
  @usableFromInline
  @exclusivity(unchecked)
  private(set) static var isActive = false

  /// The installed telemetry.
  @exclusivity(unchecked)
  private static var box: Installed? = nil

  /// While the installed telemetry's `record` runs: events it causes are not delivered to it
  /// again, and a cycle message tells a resolution that `record` started apart from a cycle.
  @exclusivity(unchecked)
  private(set) static var recording: Recording? = nil

  /// The installed telemetry in a box: a resolution that records retains the box, where a copy
  /// of the existential would go through its value witnesses.
  private final class Installed {
    let telemetry: any InjectionTelemetry

    init(_ telemetry: any InjectionTelemetry) {
      self.telemetry = telemetry
    }
  }

  /// A run of the installed telemetry's `record`.
  struct Recording {
    /// The injection building or delegating innermost when `record` began, if any: with those
    /// it runs inside, what `record` must not resolve.
    let innermost: Unmanaged<AnyObject>?
  }

  /// Records `kind` for an injection of door `D`'s kind published at `publishedAt`, at
  /// `location`: to the installed telemetry, or, with none, as a warning in debug builds if it
  /// is a misuse.
  static func record<D: DoorTypes>(
    _ kind: InjectionEvent.Kind, of door: D.Type, publishedAt: CodeLocation, at location: CodeLocation
  ) {
    record(kind, instances: D.Value.self, of: D.kind, publishedAt: publishedAt, at: location)
  }

  /// Records `kind` for an injection of `injectionKind` whose instances are of type `type`,
  /// published at `publishedAt`, at `location`.
  static func record(
    _ kind: InjectionEvent.Kind, instances type: any Any.Type, of injectionKind: InjectionKind,
    publishedAt: CodeLocation, at location: CodeLocation
  ) {
    record(kind) {
      InjectionEvent(kind: kind, instances: type, of: injectionKind, publishedAt: publishedAt, location: location)
    }
  }

  /// Records `kind` for `session` at `location`, as ``record(_:of:publishedAt:at:)`` does for an
  /// injection.
  static func record(_ kind: InjectionEvent.Kind, of session: InjectionSession, at location: CodeLocation) {
    record(kind, injection: session.label, publishedAt: session.declaredAt, at: location)
  }

  /// Records `kind` for what `injection` names, published at `publishedAt`, at `location`.
  static func record(
    _ kind: InjectionEvent.Kind, injection: String, publishedAt: CodeLocation, at location: CodeLocation
  ) {
    record(kind) { InjectionEvent(kind: kind, injection: injection, publishedAt: publishedAt, location: location) }
  }

  /// Records the event that `event` makes, of `kind`.
  private static func record(_ kind: InjectionEvent.Kind, _ event: () -> InjectionEvent) {
    guard let installed = box else {
      if DebugWarnings.areShown && kind.isMisuse {
        DebugWarnings.show(event())
      }
      return
    }
    guard recording == nil else { return }
    recording = Recording(innermost: Resolution.innermost)
    defer { recording = nil }
    installed.telemetry.record(event())
  }
}
