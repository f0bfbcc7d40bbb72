/// The scoped overrides of the current task, innermost first: a task-local list, so scoped
/// overrides are inherited by child tasks and invisible to every other task.
enum ScopedOverrides {
  @TaskLocal static var innermost: Node?

  /// One scoped override: the layer that `injection` resolves from inside the scope.
  final class Node: Sendable {
    /// The overridden `Injection<T>`, held strongly: an unstructured task can inherit this node
    /// and outlive the scope, and an identifier alone could then match another injection
    /// allocated at the same address.
    let injection: any AnyObject & Sendable
    /// A `Layer<T>` of `injection`; a main-actor class, so `Sendable`.
    let layer: any AnyObject & Sendable
    let next: Node?

    init(injection: any AnyObject & Sendable, layer: any AnyObject & Sendable, next: Node?) {
      self.injection = injection
      self.layer = layer
      self.next = next
    }
  }

  /// The innermost scoped layer of `injection` in the current task, if any.
  @MainActor
  static func layer<T>(for injection: Injection<T>) -> Layer<T>? {
    var node = innermost
    while let current = node {
      if current.injection === injection {
        // Only `Injection<T>.withScope` stores a node for this injection, with a `Layer<T>`.
        return unsafeDowncast(current.layer, to: Layer<T>.self)
      }
      node = current.next
    }
    return nil
  }
}
