// Families (`InjectionFamily`, `SendableInjectionFamily`): a key's member looked up, and a
// `.shared` consumer of a key in use created and read, against hand-written dictionaries and a
// Factory-style `ParameterFactory` (emulated), as in the benchmarks' scenario 6.

import FactoryStyle
import Inject

/// The dependency of one key.
final class KeyedService: Service {
  let key: Int
  init(_ key: Int) { self.key = key }
}

/// How many keys are in use: each has a holder that keeps its member and instance alive.
let familyKeysInUse = 100

/// The key every scenario looks up: one of those in use.
let familyKey = 50

// MARK: Hand-written baselines

/// A hand-written family: a dictionary by key, in a class.
@MainActor final class HandWrittenFamily {
  var members: [Int: KeyedService] = [:]
}

@MainActor let handWrittenFamily = HandWrittenFamily()

/// A hand-written `.shared` family: a dictionary of weak boxes by key.
@MainActor final class HandWrittenSharedFamily {
  final class WeakBox {
    weak var service: (any Service)?
  }

  var boxes: [Int: WeakBox] = [:]
}

@MainActor let handWrittenSharedFamily = HandWrittenSharedFamily()

/// A `lazy var` that looks its key's weak box up, and builds and stores an instance if the box
/// is empty.
@MainActor final class WeakBoxLazyConsumer {
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

let family = InjectionFamily<Int, any Service>(strategy: .shared) { key in KeyedService(key) }
let sendableFamily = SendableInjectionFamily<Int, any Service>(strategy: .shared) { key in KeyedService(key) }

@MainActor final class FamilyConsumer {
  @Instance var service: any Service
  init(_ key: Int) { _service = Instance(family[key]) }
}

final class SendableFamilyConsumer {
  @SendableInstance var service: any Service
  init(_ key: Int) { _service = SendableInstance(sendableFamily[key]) }
}

// MARK: Factory-style (emulated)

extension FactoryStyle.Container {
  var keyedService: ParameterFactory<Int, any Service> {
    self { key in KeyedService(key) }.shared.scopeOnParameters
  }
}

final class FactoryStyleFamilyConsumer {
  let key: Int
  lazy var service: any Service = FactoryStyle.Container.shared.keyedService(key)
  init(_ key: Int) { self.key = key }
}

// MARK: Running

/// The holders of every key in use, for each scenario; made before the measured code.
@MainActor var familyHolders: [AnyObject] = []

/// Makes a holder, resolved, for every key in use; not counted.
@MainActor
func prepareFamilies() {
  for key in 0..<familyKeysInUse {
    handWrittenFamily.members[key] = KeyedService(key)
    let weakBoxHolder = WeakBoxLazyConsumer(key)
    let familyHolder = FamilyConsumer(key)
    let sendableHolder = SendableFamilyConsumer(key)
    let factoryStyleHolder = FactoryStyleFamilyConsumer(key)
    familyHolders += [
      weakBoxHolder, weakBoxHolder.service, familyHolder, familyHolder.service, sendableHolder,
      sendableHolder.service, factoryStyleHolder, factoryStyleHolder.service,
    ]
  }
}

@MainActor @inline(__always)
func repeatLookingUp(_ lookUp: () -> AnyObject?) {
  for _ in 0..<iterations {
    escaped[0] = lookUp()
  }
}

/// The measured code of the families' scenarios, apart from `inject_profile_run` so that adding
/// them changes nothing of how the compiler optimizes the others.
@_silgen_name("inject_profile_run_family") @inline(never) @MainActor
func runFamily(_ scenario: String) {
  switch scenario {
  case "dictionary-lookup": repeatLookingUp { handWrittenFamily.members[familyKey] }
  case "family-lookup": repeatLookingUp { family[familyKey] }
  case "sendable-family-lookup": repeatLookingUp { sendableFamily[familyKey] }
  case "weak-box-lazy": repeatCreatingAndReading({ WeakBoxLazyConsumer(familyKey) }, { $0.service })
  case "family-shared-consumer": repeatCreatingAndReading({ FamilyConsumer(familyKey) }, { $0.service })
  case "sendable-family-shared-consumer":
    repeatCreatingAndReading({ SendableFamilyConsumer(familyKey) }, { $0.service })
  case "factory-style-parameter":
    repeatCreatingAndReading({ FactoryStyleFamilyConsumer(familyKey) }, { $0.service })
  case "family-consumer-read":
    let consumer = FamilyConsumer(familyKey)
    _ = consumer.service
    repeatLookingUp { consumer.service }
  case "shared-read":
    let consumer = SharedConsumer()
    _ = consumer.service
    repeatLookingUp { consumer.service }
  default: fatalError("Unknown scenario \(scenario).")
  }
}

/// The scenarios `runFamily` knows.
let familyScenarios: Set = [
  "dictionary-lookup", "family-lookup", "sendable-family-lookup", "weak-box-lazy", "family-shared-consumer",
  "sendable-family-shared-consumer", "factory-style-parameter", "family-consumer-read", "shared-read",
]
