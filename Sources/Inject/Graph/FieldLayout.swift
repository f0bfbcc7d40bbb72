/// Where a type keeps its `@Instance` properties: in itself, its superclasses and the struct
/// properties it nests, found once per type from its metadata.
///
/// Read from the type's field records, not with `Mirror`: a `Mirror` reads every field, and
/// reading an `unowned` field whose object is gone stops the program; the walk reads only the
/// `@Instance` fields at the offsets found here.
@MainActor
struct FieldLayout {
  /// One `@Instance` property.
  struct Field {
    /// Its offset from the start of the object or value.
    let offset: Int
    /// Its name, without the wrapper's underscore, behind the names of the struct properties
    /// it is nested in: `repository`, `dependencies.client`.
    let name: String
    /// Its type, an `Instance<T>`.
    let type: any InstanceField.Type
  }

  /// The type's `@Instance` properties.
  let fields: [Field]

  /// The layouts found so far, by type; types are never released, and there are finitely many.
  private static var cache: [ObjectIdentifier: FieldLayout] = [:]

  /// The layout of `type`, a class or a struct.
  static func of(_ type: any Any.Type) -> FieldLayout {
    let key = ObjectIdentifier(type)
    if let layout = cache[key] {
      return layout
    }
    let layout = FieldLayout(type)
    cache[key] = layout
    return layout
  }

  /// Finds the layout of `type`, walking nested structs with a stack rather than recursion.
  private init(_ type: any Any.Type) {
    var fields: [Field] = []
    var pending: [(type: any Any.Type, offset: Int, prefix: String)] = [(type, 0, "")]
    while let (type, base, prefix) = pending.popLast() {
      for field in StoredField.all(in: type) {
        if let instanceType = field.type as? any InstanceField.Type {
          let property = field.name.hasPrefix("_") ? String(field.name.dropFirst()) : field.name
          fields.append(Field(offset: base + field.offset, name: prefix + property, type: instanceType))
        } else if field.kind == .struct {
          pending.append((field.type, base + field.offset, prefix + field.name + "."))
        }
      }
    }
    self.fields = fields.sorted { $0.offset < $1.offset }
  }

  /// Reads the `@Instance` properties of `value`, an object or a value, in order.
  ///
  /// Of an actor too: a `@SendableInstance` is read through what its consumer published, never
  /// through the actor's state (see `InstanceStorage+Publication.swift`).
  static func read(_ value: Any) -> [(name: String, value: InstanceFieldValue)] {
    let boxed = value
    if type(of: boxed) is AnyClass {
      let object = boxed as AnyObject
      let layout = of(type(of: object))
      guard !layout.fields.isEmpty else { return [] }
      return withExtendedLifetime(object) {
        layout.read(at: UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
      }
    }
    let dynamicType: any Any.Type = type(of: boxed)
    return readValue(boxed, as: dynamicType)
  }

  /// Reads the `@Instance` properties of `value`, a `V`.
  ///
  /// `V` is opened from the dynamic type, not from the `Any`: an `Any` made from an
  /// existential in generic code holds the existential, whose fields are not the value's.
  private static func readValue<V>(_ value: Any, as _: V.Type) -> [(name: String, value: InstanceFieldValue)] {
    let layout = of(V.self)
    guard !layout.fields.isEmpty, let typed = value as? V else { return [] }
    return withUnsafePointer(to: typed) { layout.read(at: UnsafeRawPointer($0)) }
  }

  /// Reads the fields of an object or value at `address`, which the caller keeps alive.
  private func read(at address: UnsafeRawPointer) -> [(name: String, value: InstanceFieldValue)] {
    fields.map { ($0.name, $0.type.read(at: address + $0.offset)) }
  }
}
