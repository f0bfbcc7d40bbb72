/// How long an ``Injection`` keeps the instances it builds, and which consumers share them.
///
/// The strategy is chosen once, where the dependency is published, so every consumer gets the
/// same lifetime without repeating it.
///
/// ```swift
/// public let analyticsInjection = Injection<any Analytics>(strategy: .singleton, instance: LiveAnalytics())
/// ```
///
/// | Strategy | Built | Shared by | Released |
/// | --- | --- | --- | --- |
/// | ``shared`` | on the first read while none is alive | every consumer while one is alive | after the last holder lets go |
/// | ``singleton`` | on the first read | every consumer | never (until its override layer is rolled back) |
/// | ``onDemand`` | on every consumer's first read | nobody | with the consumer |
public enum Strategy: Sendable, Hashable, CaseIterable {
  /// One instance for every consumer while anyone holds it; released after the last holder.
  ///
  /// The injection holds the instance weakly: when the last consumer (or anyone else holding
  /// it) lets go, it is deallocated, and the next read builds a fresh one.
  ///
  /// > Note: A value that cannot be held weakly (a struct or an enum behind the type) is built
  /// > once and then kept like ``singleton``.
  case shared

  /// One instance for the life of the process, built on the first read.
  case singleton

  /// A new instance for every consumer, released with that consumer.
  case onDemand
}
