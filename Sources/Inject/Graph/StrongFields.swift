/// The stored fields of a class or struct that hold their value strongly: what the graph's walk
/// may read when it follows ordinary references, found once per type.
///
/// A field declared `weak` or `unowned` is left out, so the walk never reads an `unowned` field
/// whose object is gone (which stops the program) and never follows a reference that does not
/// keep its object.
@MainActor
struct StrongFields {
  /// The strong fields that can hold an object: classes, structs that can, enums (optionals
  /// too), tuples and existentials; not plain values (trivially copyable types, which hold no
  /// reference), nor `@Instance` properties, which the walk reads apart.
  let fields: [StoredField]

  /// The fields found so far, by type; types are never released, and there are finitely many.
  private static var cache: [ObjectIdentifier: StrongFields] = [:]

  /// The strong fields of `type`, a class or a struct.
  static func of(_ type: any Any.Type) -> StrongFields {
    let key = ObjectIdentifier(type)
    if let fields = cache[key] {
      return fields
    }
    let fields = StrongFields(type)
    cache[key] = fields
    return fields
  }

  private init(_ type: any Any.Type) {
    let followed: Set<MetadataKind> = [.class, .struct, .enum, .optional, .tuple, .existential]
    fields = StoredField.all(in: type).filter {
      $0.isStrong && followed.contains($0.kind) && !isPlain($0.type) && !($0.type is any InstanceField.Type)
        && ($0.kind != .struct || Self.mayHoldObjects($0.type))
    }
  }

  /// Whether a value of this type may hold an object: a class, a collection or an optional, an
  /// enum or a tuple that is not plain, a struct with a field that may.
  ///
  /// It may not hold a consumer: a struct that declares `@Instance` properties and nothing else
  /// holds no object here (see ``FieldLayout``).
  static func mayHoldObjects(_ type: any Any.Type) -> Bool {
    switch MetadataKind(of: type) {
    case .class: true
    case .struct: type is any GraphContainer.Type || of(type).mayHoldObjects
    case .enum, .optional, .tuple, .existential: !isPlain(type)
    default: false
    }
  }

  private var mayHoldObjects: Bool { !fields.isEmpty }

  /// The values of these fields in the object or value at `address`, which the caller keeps
  /// alive.
  func values(at address: UnsafeRawPointer) -> [Any] {
    fields.map { loadValue($0.type, from: address + $0.offset) }
  }
}

extension StrongFields {
  /// The values that `value` holds strongly and that may hold objects.
  ///
  /// They are the strong fields of an object or a struct, the elements of a collection, the
  /// payload of an optional or an enum, the elements of a tuple. It reads nothing else.
  static func values(in value: Any) -> [Any] {
    let boxed = value
    let type: any Any.Type = type(of: boxed)
    if type is AnyClass {
      // An actor's state is isolated to it: reading it from the main actor would race with
      // the actor's own writes.
      if type is any Actor.Type {
        return []
      }
      let object = boxed as AnyObject
      let fields = of(Swift.type(of: object))
      guard !fields.fields.isEmpty else { return [] }
      return withExtendedLifetime(object) {
        fields.values(at: UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
      }
    }
    // The metatype first: casting the value itself could bridge a whole collection.
    if type is any GraphContainer.Type, let container = boxed as? any GraphContainer {
      return container.graphElements
    }
    switch MetadataKind(of: type) {
    case .struct: return valuesOfStruct(boxed, as: type)
    case .enum, .tuple: return Mirror(reflecting: boxed).children.map(\.value)
    default: return []
    }
  }

  /// The strong fields of `value`, a struct of type `V` (its dynamic type; see
  /// ``FieldLayout``).
  private static func valuesOfStruct<V>(_ value: Any, as _: V.Type) -> [Any] {
    let fields = of(V.self)
    guard !fields.fields.isEmpty, let typed = value as? V else { return [] }
    return withUnsafePointer(to: typed) { fields.values(at: UnsafeRawPointer($0)) }
  }
}

/// A collection or an optional: the walk reads its elements, not its storage's fields.
protocol GraphContainer {
  /// The elements, boxed.
  var graphElements: [Any] { get }
}

/// A collection of the standard library that stores its elements, which the walk iterates.
///
/// Iterating it runs no code but the standard library's (on Apple platforms, and the methods of
/// an Objective-C collection bridged lazily into it). Other sequences (a lazy one, a `Slice`
/// of any collection, another package's) are read by their stored properties only, never
/// iterated.
///
/// A collection of plain values (bytes, numbers: trivially copyable types, which hold no
/// reference) is skipped whole rather than boxed element by element: an image buffer of
/// millions of bytes costs nothing.
protocol GraphStorageCollection: GraphContainer, Sequence {}

extension GraphStorageCollection {
  var graphElements: [Any] { _isPOD(Element.self) ? [] : map { $0 } }
}

extension Array: GraphStorageCollection {}
extension ContiguousArray: GraphStorageCollection {}
extension ArraySlice: GraphStorageCollection {}
extension Set: GraphStorageCollection {}
extension Dictionary.Keys: GraphStorageCollection {}
extension Dictionary.Values: GraphStorageCollection {}

extension Dictionary: GraphContainer {
  var graphElements: [Any] { keys.graphElements + values.graphElements }
}

extension Optional: GraphContainer {
  var graphElements: [Any] { map { [$0] } ?? [] }
}

/// Whether `type` is trivially copyable: it holds no reference.
private func isPlain<T>(_: T.Type) -> Bool {
  _isPOD(T.self)
}

/// `value`, of type `type`, without the optionals around it; `nil` if one of them is empty.
///
/// The caller passes the type it knows, so that a value that is no optional costs no look-up of
/// its dynamic type.
func unwrappingOptionals(_ value: Any, of type: any Any.Type) -> Any? {
  guard MetadataKind(of: type) == .optional else { return value }
  var value = value
  while MetadataKind(of: Swift.type(of: value)) == .optional {
    guard let wrapped = Mirror(reflecting: value).children.first?.value else { return nil }
    value = wrapped
  }
  return value
}

/// The value of type `F` at `address`, boxed; `F` is a field's type, opened from its metatype.
private func loadValue<F>(_: F.Type, from address: UnsafeRawPointer) -> Any {
  address.assumingMemoryBound(to: F.self).pointee
}
