import FactoryStyle
import Inject
import Swinject

// Families (`InjectionFamily`): one dependency per key, against a hand-written dictionary, a
// Factory-style `ParameterFactory` (emulated) and Swinject's `resolve(_:argument:)`.

/// The dependency of one key.
final class KeyedService: Service {
  let key: Int
  init(_ key: Int) { self.key = key }
  func value() -> Int { key }
}

/// How many keys are in use while a family is measured: each has a holder that keeps its member
/// and its `.shared` instance alive.
let familyKeysInUse = 100

/// The key every family benchmark looks up: one of those in use.
let familyKey = 50

/// A consumer made for a key.
@MainActor
protocol MadeForKey: AnyObject, Reading {
  init(_ key: Int)
}

// MARK: Hand-written baselines

/// A hand-written family: a dictionary by key, in a class.
@MainActor
final class HandWrittenFamily {
  var members: [Int: KeyedService] = [:]
}

/// The baseline of `family[key]`, with `familyKeysInUse` keys.
@MainActor
let handWrittenFamily: HandWrittenFamily = {
  let family = HandWrittenFamily()
  for key in 0..<familyKeysInUse {
    family.members[key] = KeyedService(key)
  }
  return family
}()

/// A hand-written `.shared` family: a dictionary of weak boxes by key.
@MainActor
final class HandWrittenSharedFamily {
  final class WeakBox {
    weak var service: (any Service)?
  }

  var boxes: [Int: WeakBox] = [:]
}

@MainActor let handWrittenSharedFamily = HandWrittenSharedFamily()

/// A `lazy var` that looks its key's weak box up, and builds and stores an instance if the box
/// is empty: the baseline of a `.shared` family's consumer.
final class WeakBoxLazyConsumer: MadeForKey {
  let key: Int
  lazy var service: any Service = {
    let box: HandWrittenSharedFamily.WeakBox
    if let found = handWrittenSharedFamily.boxes[key] {
      if let service = found.service {
        return service
      }
      box = found
    } else {
      box = HandWrittenSharedFamily.WeakBox()
      handWrittenSharedFamily.boxes[key] = box
    }
    let service = KeyedService(key)
    box.service = service
    return service
  }()
  init(_ key: Int) { self.key = key }
}

// MARK: Inject

let injectFamily = InjectionFamily<Int, any Service>(strategy: .shared) { key in KeyedService(key) }

/// A consumer of a family's member, as the family's documentation shows.
final class InjectFamilyConsumer: MadeForKey {
  @Instance var service: any Service
  init(_ key: Int) { _service = Instance(injectFamily[key]) }
}

// MARK: Factory-style (emulated)

extension FactoryStyle.Container {
  /// As a Factory user writes a parameterized `.shared` dependency.
  var keyedService: ParameterFactory<Int, any Service> {
    self { key in KeyedService(key) }.shared.scopeOnParameters
  }
}

/// A consumer that resolves its key's instance in a `lazy var`, as Factory's documentation shows
/// for a `ParameterFactory` (its `@Injected` takes no parameter).
final class FactoryStyleFamilyConsumer: MadeForKey {
  let key: Int
  lazy var service: any Service = FactoryStyle.Container.shared.keyedService(key)
  init(_ key: Int) { self.key = key }
}

// MARK: Swinject

/// Swinject's registrations for scenario 6, one per scope.
///
/// Swinject keeps one instance per registration, whatever the argument: `.weak` gives every key
/// the first key's instance, and `.transient` a new instance per resolution. Neither is a family;
/// both are measured.
@MainActor
let swinjectFamily: Swinject.Container = {
  let container = Swinject.Container()
  container.register((any Service).self, name: "weak") { (_: any Resolver, key: Int) in KeyedService(key) }
    .inObjectScope(.weak)
  container.register((any Service).self, name: "transient") { (_: any Resolver, key: Int) in KeyedService(key) }
    .inObjectScope(.transient)
  return container
}()

/// A consumer that resolves with its key in its initializer.
final class SwinjectFamilyConsumer: Reading {
  let service: any Service
  init(_ key: Int, name: String) {
    guard let service = swinjectFamily.resolve((any Service).self, name: name, argument: key) else {
      fatalError("The benchmark registers every name it resolves; \(name) is missing.")
    }
    self.service = service
  }
}
