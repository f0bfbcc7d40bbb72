/// The kind of a type's metadata: class, struct, enum, and so on.
///
/// The raw values are the Swift runtime's `MetadataKind` (include/swift/ABI/MetadataValues.h),
/// which the ABI fixes on Apple platforms.
enum MetadataKind: UInt {
  case `class` = 0
  case `struct` = 0x200
  case `enum` = 0x201
  case optional = 0x202
  case foreignClass = 0x203
  case opaque = 0x300
  case tuple = 0x301
  case function = 0x302
  case existential = 0x303
  case metatype = 0x304
  case objcClassWrapper = 0x305
  case existentialMetatype = 0x306
  case unknown = 0xffff

  /// The kind of `type`'s metadata, `.unknown` for a kind not listed here.
  init(of type: any Any.Type) {
    self = MetadataKind(rawValue: metadataKind(type)) ?? .unknown
  }
}

// NB: an entry point of the Swift runtime (libswiftCore), exported since the Swift 5.2 runtime
// at the latest, which the standard library's own reflection calls; see CONTRIBUTING.md's
// availability audit.
@_silgen_name("swift_getMetadataKind")
private func metadataKind(_ type: any Any.Type) -> UInt
