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
/// | ``session(_:)`` | on the first read of the session's generation | every consumer in the generation | when the session ends, ``InjectionSession/end(fileID:line:)`` |
///
/// > Important: `Strategy` gained ``session(_:)`` in 2.0: a `switch` over a strategy that names
/// > every case needs a `case .session` (or a `default`). ``allCases`` lists the three
/// > strategies that need no session.
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

  /// One instance for every consumer while `session` lasts: like ``singleton`` within one
  /// generation of the session, released when the session ends in the world that stores it.
  ///
  /// ```swift
  /// public let userSession = InjectionSession("signed-in user")
  /// public let accountStoreInjection = Injection<AccountStore>(strategy: .session(userSession), instance: AccountStore())
  /// ```
  ///
  /// Two session strategies are equal when they name the same session object. See <doc:Sessions>.
  case session(InjectionSession)

  /// The strategies that need no session: ``shared``, ``singleton`` and ``onDemand``.
  public static let allCases: [Strategy] = [.shared, .singleton, .onDemand]
}

extension Strategy: CustomStringConvertible {
  /// The strategy's name as it is written after a dot: `shared`, `singleton`, `onDemand`, or
  /// `session(signed-in user)` with the session's name.
  public var description: String {
    switch self {
    case .shared: "shared"
    case .singleton: "singleton"
    case .onDemand: "onDemand"
    case .session(let session): "session(\(session.name))"
    }
  }

  /// Whether the strategy is ``onDemand``: matched, where `==` on an enum with a payload costs a
  /// call.
  var isOnDemand: Bool {
    if case .onDemand = self { true } else { false }
  }

  /// The session, for a ``session(_:)`` strategy.
  var session: InjectionSession? {
    if case .session(let session) = self { session } else { nil }
  }
}
