import Inject
import Testing

// Sendable injections in the Swift 5 language mode: a global sendable injection, consumers in an
// actor, a class that declares no isolation and a struct, and a detached task that resolves.

final class Swift5Client: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

let swift5Client = SendableInjection<Swift5Client>(strategy: .singleton, instance: Swift5Client("live"))

actor Swift5Loader {
  @SendableInstance(swift5Client) var client
  func clientName() -> String { client.name }
}

final class Swift5ClientConsumer {
  @SendableInstance(swift5Client) var client
}

struct Swift5ClientView {
  @SendableInstance(swift5Client) var client
}

@Suite struct SendableSwift5Tests {
  @Test(.timeLimit(.minutes(4))) func everyConsumerResolvesTheSingletonFromItsOwnIsolation() async {
    let fromActor = await Swift5Loader().clientName()
    let consumer = Swift5ClientConsumer()
    let view = Swift5ClientView()
    let detached = await Task.detached { swift5Client.resolve() }.value
    #expect(fromActor == "live")
    #expect(consumer.client === view.client)
    #expect(detached === consumer.client)
  }

  @Test(.timeLimit(.minutes(4))) func aScopeReachesTheActorThroughTheTask() async {
    let name = await swift5Client.withOverride(Swift5Client("mock")) {
      await Swift5Loader().clientName()
    }
    #expect(name == "mock")
  }
}
