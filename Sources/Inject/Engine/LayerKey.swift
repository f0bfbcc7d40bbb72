/// A layer's identity as the key of a world part's slots: the key that every resolution in a
/// world looks up, hashed in a few instructions.
///
/// `ObjectIdentifier`'s hash runs the standard library's SipHash over the address, about 90
/// instructions, a tenth of a first read in a world. The keys are addresses of layers this
/// process made, never input that an attacker chooses, so a multiply-and-shift mix of the
/// address with the table's seed spreads them as well, in a few.
struct LayerKey: Hashable, Sendable {
  let layer: ObjectIdentifier

  init(_ layer: ObjectIdentifier) {
    self.layer = layer
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(layer)
  }

  /// The hash that `Dictionary` and `Set` use: the address mixed with `seed` (the table's own,
  /// so that tables of the same keys do not collide alike) by the finalizer of MurmurHash3.
  ///
  /// A requirement of `Hashable` in the standard library's public interface, which its own
  /// collections call in place of `hash(into:)` (`swift-collections` implements it too).
  func _rawHashValue(seed: Int) -> Int {
    var bits = UInt64(UInt(bitPattern: layer)) ^ UInt64(UInt(bitPattern: seed))
    bits ^= bits >> 33
    bits &*= 0xff51_afd7_ed55_8ccd
    bits ^= bits >> 33
    return Int(truncatingIfNeeded: bits)
  }
}
