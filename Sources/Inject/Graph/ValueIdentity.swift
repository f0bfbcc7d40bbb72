/// A value that the graph's walk met by following references, told apart by its type and its
/// bytes, so that storage shared by many paths (an array in many places, an indirect enum's
/// boxes) is walked once.
///
/// Two values of one type with the same bytes hold the same references (to objects, to the
/// storage of a collection or a box) and the same plain data, so they reach the same instances.
/// The walk keeps every value it met alive until it ends, so no address is reused meanwhile.
/// Equal values with different bytes (padding) are only walked twice.
struct ValueIdentity: Hashable {
  let type: ObjectIdentifier
  let bytes: [UInt8]

  /// The identity of `value`, of its dynamic type; `nil` if it cannot be read as that type.
  init?(_ value: Any) {
    let type = Swift.type(of: value)
    guard let bytes = bytesOf(value, as: type) else { return nil }
    self.type = ObjectIdentifier(type)
    self.bytes = bytes
  }
}

/// The bytes of `value`, a `V`.
private func bytesOf<V>(_ value: Any, as _: V.Type) -> [UInt8]? {
  guard let typed = value as? V else { return nil }
  return withUnsafeBytes(of: typed) { Array($0) }
}
