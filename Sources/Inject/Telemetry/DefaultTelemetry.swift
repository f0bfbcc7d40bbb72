#if canImport(OSLog)
import OSLog

/// Writes every event to `os.Logger` at the debug level: the default on Apple platforms.
struct LoggerTelemetry: InjectionTelemetry {
  let logger = Logger(subsystem: "Inject", category: "injection")

  func record(_ event: InjectionEvent) {
    logger.debug("\(event.description, privacy: .public)")
  }
}

/// On Apple platforms, `os.Logger` at the debug level.
func defaultTelemetry() -> (any InjectionTelemetry)? { LoggerTelemetry() }

/// Whether `defaultTelemetry()` returns a telemetry.
let hasDefaultTelemetry = true
#else
/// Elsewhere, silence.
func defaultTelemetry() -> (any InjectionTelemetry)? { nil }

/// Whether `defaultTelemetry()` returns a telemetry.
let hasDefaultTelemetry = false
#endif
