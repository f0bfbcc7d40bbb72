extension Unmanaged {
  /// Runs `body` with the object, which the caller guarantees to keep alive, without retaining
  /// it.
  ///
  /// The same as the standard library's `_withUnsafeGuaranteedRef`, declared in this Swift 6
  /// module so that a main-actor closure passed here needs no run-time isolation check (one
  /// formed for a Swift 5 module, such as the standard library, gets one).
  @inlinable
  func withGuaranteedReference<Result>(_ body: (Instance) -> Result) -> Result {
    _withUnsafeGuaranteedRef(body)
  }
}
