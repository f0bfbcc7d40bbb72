/// The injections whose instances are being built or delegated on the main actor right now,
/// innermost last: the chain that a dependency-cycle message names.
@MainActor
@usableFromInline
enum Resolution {
  @usableFromInline
  static let chain = Cell<[Unmanaged<AnyObject>]>.make([])

  /// Stops the program: `injection` was asked for an instance while it is building one.
  static func cycle(at injection: some InjectionIdentity) -> Never {
    let ids = chain.access { $0 }.map { $0.takeUnretainedValue() }
    // Every entry is an injection whose `guardingCycles` frame is still on the stack.
    let labels = ids.drop { $0 !== injection }.compactMap { ($0 as? any InjectionIdentity)?.label }
    fatalError(
      "Dependency cycle: \((labels + [injection.label]).joined(separator: " → ")). "
        + "To fix this, break the cycle: read one of these dependencies lazily (after init) "
        + "or remove the override that closes the loop.")
  }
}

/// What diagnostics need to know of an injection, whatever its type.
@MainActor
protocol InjectionIdentity: AnyObject {
  /// The injection's type and where it was published, such as
  /// `Injection<Service> (ServicePackage/Services.swift:12)`.
  var label: String { get }
}
