/// A mutable value behind a `let` reference, read and written through a pointer.
///
/// The engine keeps the state that resolution reads on every new consumer in cells: a stored
/// `var` of a class costs a dynamic exclusivity check on each access from another module (the
/// consumer's, where the fast path is inlined), a cell costs a load. Every access through
/// ``access(_:)`` is instantaneous and none nests inside another on the same cell, so skipping
/// the check loses no safety.
///
/// A value read and written whole, a flag or a count, is a stored property marked
/// `@exclusivity(unchecked)` instead, as safely (``Resolution/isGeneral``): as a static with a
/// constant initial value, it is initialized statically, where a static cell is made lazily and
/// each access pays the check for that (the general path reads such values on every
/// resolution); as a field of a generic class, its offset is fixed, where a cell of a generic
/// value costs an unspecialized access in code not specialized for it (``Injection/isResolving``).
///
/// A cell is not `Sendable`: the compiler confines it to the isolation domain of its owner,
/// which for most cells of the engine is the main actor. A cell that other threads reach is
/// declared `nonisolated(unsafe)`, with the proof of why its accesses cannot race beside it (a
/// world configuration's scoped overrides, written only before any other thread can reach it).
@usableFromInline
final class Cell<Value>: ManagedBuffer<Value, Void> {
  /// A cell holding `value`.
  @inlinable
  static func make(_ value: Value) -> Cell<Value> {
    // `create` allocates an instance of the class it is called on: `Cell<Value>`.
    unsafeDowncast(create(minimumCapacity: 0) { _ in value }, to: Cell<Value>.self)
  }

  /// Runs `body` with the value, which it may change.
  @inlinable
  func access<R>(_ body: (inout Value) -> R) -> R {
    withUnsafeMutablePointerToHeader { body(&$0.pointee) }
  }

  /// Runs `body` with the value, which it only reads: reads of a value that no one changes any
  /// more may run on several threads at once (a world's overrides, written once by its
  /// initializer).
  @inlinable
  func read<R>(_ body: (Value) -> R) -> R {
    withUnsafeMutablePointerToHeader { body($0.pointee) }
  }
}

/// Read back from a world's main-actor part, which the index of the parts that hold each layer's
/// slots keeps type-erased. Safe: it lists a part under the layers of its own kind only, and
/// a main-actor layer's parts are read back as the guard of a part of that kind, a
/// `Cell<WorldPart>` (``WorldPartGuard/withPart(ofSameKind:_:)``).
extension Cell: Unerasable {}
