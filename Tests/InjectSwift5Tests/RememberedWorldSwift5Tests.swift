import Dispatch
import Inject
import InjectTesting
import Testing

// A model made in a scope or a test remembers its world in the Swift 5 language mode too, for
// both kinds of consumer, and a carried world runs from a detached task.

let rememberedWorker = Injection<Worker>(strategy: .singleton, instance: Worker(result: "published"))
let rememberedSendable = SendableInjection<String>(strategy: .singleton, instance: "published")

/// A consumer whose isolation Swift 5 infers from `@Instance`: the main actor.
final class RememberingModel {
  @Instance(rememberedWorker) var worker
  @SendableInstance(rememberedSendable) var text

  func perform() -> String { worker.result + " " + text }
}

@Suite @MainActor struct RememberedWorldSwift5Tests {
  @Test func aModelMadeInAScopeReadsItsOverridesAfterIt() {
    let model = rememberedWorker.withOverride(Worker(result: "scoped")) {
      rememberedSendable.withOverride("scoped") { RememberingModel() }
    }
    #expect(model.perform() == "scoped scoped")
    #expect(RememberingModel().perform() == "published published")
  }

  @Test(.timeLimit(.minutes(4)), .overriding(rememberedSendable, with: "mock"))
  func aCarriedWorldRunsInADetachedTask() async {
    let world = InjectionWorld.current
    let text = await Task.detached { world.run { rememberedSendable.resolve() } }.value
    #expect(text == "mock")
  }
}
