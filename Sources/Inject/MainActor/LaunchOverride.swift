/// A replacement that a launch argument or an environment variable applies to an injection at
/// launch: for UI tests and demo builds, declared beside the implementation.
///
/// ```swift
/// // ProfileKit/APIClient.swift
/// public let apiClientInjection = Injection<any APIClient>(
///   strategy: .singleton,
///   instance: LiveAPIClient(),
///   // …
///   launchOverrides: [
///     .argument("-mock-api", with: MockAPIClient(users: [.demo])),
///     .environment("MOCK_API", with: MockAPIClient(users: [.demo])),
///   ]
/// )
/// ```
///
/// A UI-test target launches the app with the argument, and the app needs no code of its own:
///
/// <!-- not compiled: XCUITest exists on Apple platforms only; on Linux, ProfileApp's process tests launch it -->
/// ```swift
/// let app = XCUIApplication()
/// app.launchArguments = ["-mock-api"]
/// app.launch()
/// ```
///
/// The injection checks its launch overrides when it is created (a global is created on its
/// first use), so the replacement is in place before any consumer resolves. It replaces the
/// published configuration: global and scoped overrides, and a test world's test value, still
/// win. Telemetry events name it as ``InjectionEvent/Layer/launchOverride(_:)`` with the reason.
public struct LaunchOverride<T> {
  let trigger: LaunchTrigger
  let instance: @MainActor () -> T

  /// Applies when the process was launched with `argument` among its arguments.
  ///
  /// - Parameters:
  ///   - argument: The launch argument, as written on the command line: `-mock-api`.
  ///   - instance: Builds the replacement, lazily, on the main actor, under the injection's
  ///     strategy.
  /// - Returns: A launch override.
  public static func argument(_ argument: String, with instance: @autoclosure @escaping @MainActor () -> T) -> Self {
    Self(trigger: .argument(argument), instance: instance)
  }

  /// Applies when the process was launched with `variable` set in its environment, to any
  /// value other than empty, `0` or `false`.
  ///
  /// - Parameters:
  ///   - variable: The environment variable: `MOCK_API`.
  ///   - instance: Builds the replacement, lazily, on the main actor, under the injection's
  ///     strategy.
  /// - Returns: A launch override.
  public static func environment(_ variable: String, with instance: @autoclosure @escaping @MainActor () -> T) -> Self {
    Self(trigger: .environment(variable), instance: instance)
  }
}
