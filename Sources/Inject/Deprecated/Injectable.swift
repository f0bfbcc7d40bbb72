/// A 1.x consumer that can replace its dependencies: `view.injecting(Mock(), for: \.network)`.
@_documentation(visibility: private)
@available(*, deprecated, message: "Assign the @Instance property instead; see MIGRATION.md")
public protocol Injectable {}

@available(*, deprecated, message: "Assign the @Instance property instead; see MIGRATION.md")
extension Injectable {
  /// Replaces the instance of the dependency at `keyPath` for this consumer only.
  ///
  /// ```swift
  /// let view = SomeView().injecting(MockNetworking(), for: \.network)
  /// ```
  ///
  /// - Parameters:
  ///   - value: The instance to use.
  ///   - keyPath: The consumer's `@Injected` property.
  /// - Returns: This consumer.
  public func injecting<Value>(_ value: Value, for keyPath: KeyPath<Self, Dependency<Value>>) -> Self {
    self[keyPath: keyPath].override(with: value)
    return self
  }
}
