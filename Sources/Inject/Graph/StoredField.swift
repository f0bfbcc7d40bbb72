/// A stored field of a class (its superclasses' included) or a struct, as the type's metadata
/// records it: what ``FieldLayout`` and ``StrongFields`` read.
///
/// Found with the Swift runtime's reflection entry points, the ones the standard library's
/// `Mirror` and `_forEachField` call, because the standard library's public interface has no
/// API that gives a field's offset or says whether it is `weak` or `unowned` (`_forEachField` is
/// SPI, which Apple SDKs do not ship).
struct StoredField {
  /// Its name as declared, such as `_repository` for a property wrapper's storage; a raw
  /// identifier without its backticks.
  let name: String
  /// Its offset from the start of the object or value.
  let offset: Int
  /// Its type.
  let type: any Any.Type
  /// The kind of its type.
  let kind: MetadataKind
  /// Whether it holds its value strongly: not `weak`, `unowned` or `unowned(unsafe)`.
  let isStrong: Bool

  /// The stored fields of `type` in declaration order, superclasses first, if it is a Swift
  /// class or a struct; none for any other type.
  ///
  /// A field whose type the runtime cannot find stands in as an empty tuple, as in `Mirror`: it
  /// is listed, it holds nothing, and the fields after it are listed too. Other types are left
  /// out because the runtime reads an enum's fields from a value, which there is none of here.
  static func all(in type: any Any.Type) -> [StoredField] {
    guard [.class, .struct].contains(MetadataKind(of: type)) else { return [] }
    return (0..<reflectionFieldCount(type)).map { index in
      var record = FieldRecord()
      let fieldType = reflectionFieldType(type, index: index, record: &record)
      defer { record.freeName?(record.name) }
      return StoredField(
        name: record.name.map { asDeclared(String(cString: $0)) } ?? "",
        offset: reflectionFieldOffset(type, index: index), type: fieldType,
        kind: MetadataKind(of: fieldType), isStrong: record.isStrong)
    }
  }
}

/// A name, or a type's name, that the runtime printed, as it was declared.
///
/// Its raw identifiers (`` `my field` ``, Swift 6.2) lose their backticks and get back their
/// spaces, which the runtime prints as no-break spaces (U+00A0). A raw identifier holds no
/// backtick.
private func asDeclared(_ printed: String) -> String {
  String(printed.compactMap { $0 == "`" ? nil : $0 == "\u{A0}" ? " " : $0 })
}

/// `type`'s name as Swift prints it, with the backticks of its raw identifiers removed: a
/// generic `G` of a type declared as a raw identifier, `my type`, is named `G<my type>`.
func typeName(_ type: any Any.Type) -> String {
  asDeclared("\(type)")
}

// NB: entry points of the Swift runtime (libswiftCore), declared as the standard library's
// ReflectionMirror.swift declares them for `_forEachField`; exported since the Swift 5.2 runtime,
// filling in the record below since the 5.4 runtime at the latest (earlier ones took the name and
// its free function apart). See CONTRIBUTING.md's availability audit.

/// What `swift_reflectionMirror_recursiveChildMetadata` tells of a field, laid out as the
/// standard library's `_FieldReflectionMetadata` (SwiftShims/Reflection.h), which the runtime
/// fills in field by field.
private struct FieldRecord {
  var name: UnsafePointer<CChar>?
  var freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)?
  var isStrong = false
  var isVar = false
}

/// How many stored fields `type` has, its superclasses' included.
@_silgen_name("swift_reflectionMirror_recursiveCount")
private func reflectionFieldCount(_ type: any Any.Type) -> Int

/// The type of the field at `index` of `type`, and what `record` says of it.
@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func reflectionFieldType(
  _ type: any Any.Type, index: Int, record: UnsafeMutablePointer<FieldRecord>
) -> any Any.Type

/// The offset of the field at `index` of `type`.
@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func reflectionFieldOffset(_ type: any Any.Type, index: Int) -> Int
