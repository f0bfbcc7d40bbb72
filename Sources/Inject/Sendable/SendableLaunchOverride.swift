/// A replacement that a launch argument or an environment variable applies to a
/// ``SendableInjection`` at launch, for UI tests and demo builds: the sendable counterpart of
/// ``LaunchOverride``, spelled the same way where the injection is published.
///
/// ```swift
/// public let demoImageClientInjection = SendableInjection<any ImageClient>(
///   strategy: .singleton,
///   instance: LiveImageClient(),
///   launchOverrides: [.argument("-mock-images", with: MockImageClient())]
/// )
/// ```
public struct SendableLaunchOverride<T: Sendable>: Sendable {
  let trigger: LaunchTrigger
  let instance: @Sendable () -> T

  /// Applies when the process was launched with `argument` among its arguments.
  ///
  /// - Parameters:
  ///   - argument: The launch argument, as written on the command line: `-mock-api`.
  ///   - instance: Builds the replacement, lazily, under the injection's strategy.
  /// - Returns: A launch override.
  public static func argument(_ argument: String, with instance: @autoclosure @escaping @Sendable () -> T) -> Self {
    Self(trigger: .argument(argument), instance: instance)
  }

  /// Applies when the process was launched with `variable` set in its environment, to any
  /// value other than empty, `0` or `false`.
  ///
  /// - Parameters:
  ///   - variable: The environment variable: `MOCK_API`.
  ///   - instance: Builds the replacement, lazily, under the injection's strategy.
  /// - Returns: A launch override.
  public static func environment(_ variable: String, with instance: @autoclosure @escaping @Sendable () -> T) -> Self {
    Self(trigger: .environment(variable), instance: instance)
  }
}
