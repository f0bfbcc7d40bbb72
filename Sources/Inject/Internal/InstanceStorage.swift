/// The state of one `@Instance` property, shared by copies of the wrapper: the injection it
/// consumes, and its instance once resolved or assigned.
@MainActor
final class InstanceStorage<T> {
  let injection: Injection<T>
  /// The resolved or locally assigned instance.
  var local: T?

  nonisolated init(_ injection: Injection<T>) {
    self.injection = injection
  }

  /// The instance, resolved on the first read.
  var value: T {
    if let local {
      return local
    }
    let resolved = injection.resolve()
    local = resolved
    return resolved
  }
}
