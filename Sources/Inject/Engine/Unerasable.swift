/// A class whose instances the engine keeps type-erased where their type cannot be named, and
/// reads back as what they are: an injection's layers in its stacks, its scopes and its family's
/// overrides, a family's overrides, the slots and the parts of a world, an injection's engine.
///
/// Each such store has one writer, which stores only one type for what it is read back with:
/// for the layers of an injection of door `D`, only `Layer<D>`s (``Layer``'s conformance says
/// why); each reader states its store's rule beside the cast. So the type is known where it is
/// read, and ``unerased(_:)`` need not check it: it checks it in debug builds, which every test
/// runs, and is `unsafeDowncast` alone in release builds, where resolution pays nothing for it.
@usableFromInline
protocol Unerasable: AnyObject {}

extension Unerasable {
  /// `erased`, which the rule of the store it comes from says is a `Self`, as one.
  ///
  /// Checked in debug builds only: a wrong type stops the program there, naming both types.
  @inlinable @inline(__always)
  static func unerased(_ erased: AnyObject) -> Self {
    assert(erased is Self, "Inject: a type-erased \(type(of: erased)) where only \(Self.self)s are stored")
    return unsafeDowncast(erased, to: Self.self)
  }
}
