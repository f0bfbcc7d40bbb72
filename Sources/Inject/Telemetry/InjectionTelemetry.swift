/// Observes every ``InjectionEvent`` of every injection.
///
/// Install one with ``installTelemetry(_:)``, once, at launch. Its `record(_:)` runs on the main
/// actor, synchronously, where the event happens.
///
/// ```swift
/// final class RecordingTelemetry: InjectionTelemetry {
///   @MainActor private(set) var events: [InjectionEvent] = []
///   func record(_ event: InjectionEvent) { events.append(event) }
/// }
/// installTelemetry(RecordingTelemetry())
/// ```
///
/// The default is silent on Linux; on Apple platforms it writes every event to `os.Logger` at
/// the debug level (subsystem `Inject`). While no telemetry is installed, resolution checks one
/// flag and does no formatting and no allocation.
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
/// - Parameter telemetry: The telemetry that records every event from now on, or `nil`.
@MainActor
public func installTelemetry(_ telemetry: (any InjectionTelemetry)?) {
  Telemetry.installed = telemetry
  Telemetry.isActive = telemetry != nil
}

/// The installed telemetry.
@MainActor
@usableFromInline
enum Telemetry {
  /// The installed telemetry, which only the general path of resolution reads.
  static var installed: (any InjectionTelemetry)? = defaultTelemetry()

  /// Whether a telemetry is installed: the one check the resolution fast path makes.
  ///
  /// A stored `Bool` with a constant initial value, so the compiler initializes it statically
  /// and reading it costs one load, with no check for lazy initialization.
  @usableFromInline
  static var isActive = hasDefaultTelemetry

  /// Records `kind` for `injection` at `location`, if a telemetry is installed.
  static func record<T>(_ kind: InjectionEvent.Kind, _ injection: Injection<T>, at location: CodeLocation) {
    guard let telemetry = installed else { return }
    telemetry.record(
      InjectionEvent(kind: kind, of: injection, publishedAt: injection.location, location: location))
  }
}
