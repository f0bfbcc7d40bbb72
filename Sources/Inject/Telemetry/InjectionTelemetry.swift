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
  Telemetry.installed.access { $0 = Telemetry.Installed(telemetry: telemetry) }
}

/// The installed telemetry.
@MainActor
@usableFromInline
enum Telemetry {
  @usableFromInline
  struct Installed {
    let telemetry: (any InjectionTelemetry)?
    /// Whether `telemetry` is not `nil`, readable without copying the existential.
    @usableFromInline
    let isActive: Bool

    init(telemetry: (any InjectionTelemetry)?) {
      self.telemetry = telemetry
      self.isActive = telemetry != nil
    }
  }

  @usableFromInline
  static let installed = Cell.make(Installed(telemetry: defaultTelemetry()))

  /// Whether a telemetry is installed: the one check the resolution fast path makes.
  @inlinable
  static var isActive: Bool { installed.access { $0.isActive } }

  /// Records `kind` for `injection` at `location`, if a telemetry is installed.
  static func record<T>(_ kind: InjectionEvent.Kind, _ injection: Injection<T>, at location: CodeLocation) {
    guard let telemetry = installed.access({ $0.telemetry }) else { return }
    telemetry.record(
      InjectionEvent(kind: kind, of: injection, publishedAt: injection.location, location: location))
  }
}
