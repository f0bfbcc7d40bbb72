import Inject
import Testing

@Suite @MainActor struct InjectionTests {
  @Test func creatingAnInjectionBuildsNothing() {
    for strategy in Strategy.allCases {
      let (injection, factory) = makeInjection(strategy)
      #expect(injection.strategy == strategy)
      #expect(factory.calls == 0)
    }
  }

  @Test(.timeLimit(.minutes(4))) func injectionCanBeCreatedOffTheMainActor() async {
    let injection = await Task.detached {
      Injection<any Service>(strategy: .singleton, instance: MainActorService())
    }.value
    #expect(Consumer(injection).service.name == "main actor")
  }

  @Test func globalInjectionsNeedNoMainActor() {
    let consumer = NonisolatedConsumer()
    let screen = MainActorScreen()
    #expect(consumer.service === screen.singleton)
    #expect(screen.shared === MainActorScreen().shared)
  }
}

/// An implementation whose initializer is isolated to the main actor.
@MainActor
private final class MainActorService: Service {
  nonisolated let name = "main actor"
  init() {}
}

// Both spellings of a published global compile: plain (consumable anywhere) and main-actor.
private let globalSingleton = Injection<any Service>(strategy: .singleton, instance: MainActorService())
@MainActor private let globalShared = Injection<any Service>(
  strategy: .shared, instance: ServiceImplementation("global shared"))

private final class NonisolatedConsumer {
  @Instance(globalSingleton) var service
}

@MainActor
private final class MainActorScreen {
  @Instance(globalSingleton) var singleton
  @Instance(globalShared) var shared
}
