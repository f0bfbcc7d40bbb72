import Inject

/// A store for one key, which says which key and which factory built it.
final class KeyedStore {
  let key: Int
  let source: String
  init(_ key: Int, _ source: String = "live") {
    self.key = key
    self.source = source
  }
}

/// A factory of keyed stores that counts its calls per key.
@MainActor
final class KeyedFactory {
  private(set) var calls: [Int: Int] = [:]
  let source: String

  init(_ source: String = "live") { self.source = source }

  func make(_ key: Int) -> KeyedStore {
    calls[key, default: 0] += 1
    return KeyedStore(key, source)
  }

  var totalCalls: Int { calls.values.reduce(0, +) }
}

/// A fresh family and its counting factory: each test owns its own.
@MainActor
func makeFamily(_ strategy: Strategy) -> (InjectionFamily<Int, KeyedStore>, KeyedFactory) {
  let factory = KeyedFactory()
  return (InjectionFamily<Int, KeyedStore>(strategy: strategy) { factory.make($0) }, factory)
}

/// A key whose every value hashes alike: equal hashes, unequal keys.
struct CollidingKey: Hashable, Sendable {
  let id: Int
  func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

/// A key whose `hash(into:)` disagrees with its `==`: equal keys (same `id`) of different `salt`
/// hash apart, against `Hashable`'s requirement.
struct SaltedKey: Hashable, Sendable {
  let id: Int
  let salt: Int
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
  func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(salt)
  }
}
