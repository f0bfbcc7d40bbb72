import Inject

/// How large the stress tests are: at full scale (a million consumers; memory bounds that only
/// so many allocations can tell from noise) when `INJECT_STRESS=1`, which `.ci/run` sets for its
/// release-mode run; otherwise small enough that `swift test` stays quick, with the same checks
/// but the memory bounds.
enum StressScale {
  /// Whether `INJECT_STRESS` asks for the full scale: set to anything but empty, `0` or `false`,
  /// as Inject reads its own variables.
  static let isFull = isSetInEnvironment("INJECT_STRESS")

  /// `full` at full scale, else `quick`.
  static func count(full: Int, quick: Int) -> Int { isFull ? full : quick }
}
