import Inject
import Testing

// Families in the Swift 5 language mode: a consumer that declares no isolation, made with a key
// in its initializer, and a sendable family read from a detached task.

let workersByName = InjectionFamily<String, Worker>(strategy: .shared) { name in Worker(result: name) }
let sendableNames = SendableInjectionFamily<Int, String>(strategy: .singleton) { "name \($0)" }

/// A consumer of one key, as the chat screen model is.
final class NamedWorkerModel {
  @Instance var worker: Worker

  init(name: String) {
    _worker = Instance(workersByName[name])
  }

  func perform() -> String { worker.result }
}

@Suite struct FamilySwift5Tests {
  @Test @MainActor func aConsumerOfOneKeyInTheSwift5Mode() {
    let first = NamedWorkerModel(name: "a")
    let again = NamedWorkerModel(name: "a")
    #expect(first.perform() == "a")
    #expect(first.worker === again.worker)
    #expect(NamedWorkerModel(name: "b").perform() == "b")
  }

  @Test(.timeLimit(.minutes(4))) func aSendableFamilyFromADetachedTask() async {
    let name = await Task.detached { sendableNames[3].resolve() }.value
    #expect(name == "name 3")
  }
}
