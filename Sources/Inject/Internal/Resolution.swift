/// The injections whose instances are being built or delegated on the main actor right now,
/// innermost last; used to stop a dependency cycle with a message instead of a stack overflow.
@MainActor
enum Resolution {
  private static var inProgress: [any InjectionIdentity] = []

  /// Runs `body` while `injection` is marked as resolving; stops with a message naming the
  /// whole chain if `injection` is already resolving further out.
  static func track<R>(_ injection: some InjectionIdentity, _ body: () -> R) -> R {
    if inProgress.contains(where: { $0 === injection }) {
      let chain = inProgress.drop(while: { $0 !== injection }).map(\.label) + [injection.label]
      fatalError(
        "Dependency cycle: \(chain.joined(separator: " → ")). "
          + "To fix this, break the cycle: read one of these dependencies lazily (after init) "
          + "or remove the override that closes the loop.")
    }
    inProgress.append(injection)
    defer { inProgress.removeLast() }
    return body()
  }
}

/// What diagnostics need to know of an injection, whatever its type.
@MainActor
protocol InjectionIdentity: AnyObject {
  /// The injection's type and where it was published, e.g.
  /// `Injection<any Service> (ServicePackage/Services.swift:12)`.
  var label: String { get }
}
