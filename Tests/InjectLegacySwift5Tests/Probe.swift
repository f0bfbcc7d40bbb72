import Inject

/// A dependency whose initializer is main-actor-isolated, as a 1.x client's view models were,
/// and that counts how many of each kind the `DefaultValues` properties below built.
@MainActor final class Probe {
  private(set) static var built: [String: Int] = [:]

  private let kind: String

  init(_ kind: String) {
    self.kind = kind
    Probe.built[kind, default: 0] += 1
  }

  /// Main-actor-isolated: only main-actor code can call it without `await`.
  func describe() -> String { kind }
}

/// One property per test, so that tests running in parallel share no 1.x instance: 1.x keys its
/// instances by key path.
@available(*, deprecated)
extension DefaultValues {
  var localTemporaryProbe: Probe { Probe("localTemporary") }
  var localPermanentProbe: Probe { Probe("localPermanent") }
  var sharedTemporaryProbe: Probe { Probe("sharedTemporary") }
  var sharedPermanentProbe: Probe { Probe("sharedPermanent") }
  var overriddenProbe: Probe { Probe("overridden") }
  var injectedProbe: Probe { Probe("injected") }
  var classProbe: Probe { Probe("class") }
  var structProbe: Probe { Probe("struct") }
  var actorLocalProbe: Probe { Probe("actorLocal") }
  var actorSharedProbe: Probe { Probe("actorShared") }
}

/// A 1.x consumer of one key path, configured by its creator.
@available(*, deprecated)
final class ProbeConsumer: Injectable {
  @Injected var probe: Dependency<Probe>

  init(_ keyPath: DefaultValues.KeyPath<Probe>, lifespan: Lifespan, scope: Scope) {
    _probe = Injected(keyPath, lifespan: lifespan, scope: scope)
  }
}
