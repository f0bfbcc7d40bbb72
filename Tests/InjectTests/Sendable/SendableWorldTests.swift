import Inject
import InjectTesting
import Testing

/// A client that test worlds resolve by name.
private final class NamedClient: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

/// One sendable client for the whole suite, as an app publishes it: each test overrides it in its
/// own world, so the tests run in parallel without seeing each other's overrides.
private let clientInjection = SendableInjection<NamedClient>(
  strategy: .singleton, instance: NamedClient("live"), test: NamedClient("test"))

/// A client with no test value, which a test process may build live in the global world.
private let plainClientInjection = SendableInjection<NamedClient>(strategy: .singleton, instance: NamedClient("live"))

/// A sendable repository that holds the client it was built with.
private final class NamedRepository: Sendable {
  let client: NamedClient
  init(_ client: NamedClient) { self.client = client }
}

private let repositoryInjection = SendableInjection<NamedRepository>(
  strategy: .singleton, instance: NamedRepository(clientInjection.resolve()))

/// A main-actor view model that holds the sendable repository.
@MainActor private final class ViewModel {
  let repository: NamedRepository
  init(_ repository: NamedRepository) { self.repository = repository }
}

private let viewModelInjection = Injection<ViewModel>(
  strategy: .singleton, instance: ViewModel(repositoryInjection.resolve()))

@MainActor private final class ViewModelScreen {
  @Instance(viewModelInjection) var viewModel
}

private actor Loader {
  @SendableInstance(repositoryInjection) var repository
  func clientName() -> String { repository.client.name }
}

@Suite @MainActor struct SendableWorldTests {
  @Test(.timeLimit(.minutes(4)), .overriding(clientInjection, with: NamedClient("mock")), arguments: 0..<8)
  func eachTestSeesItsOwnOverrideFromAnActorAndAChildTask(index: Int) async {
    #expect(await Loader().clientName() == "mock")
    let fromChild = await Task { repositoryInjection.resolve().client.name }.value
    #expect(fromChild == "mock")
    // A detached task is outside the test's world: there the test's stack is empty.
    #expect(await Task.detached { clientInjection.overrideCount }.value == 0)
  }

  @Test(.timeLimit(.minutes(4))) func aTestWorldResolvesTheTestValueAndKeepsItsOwnStack() async {
    await withIsolatedInjections {
      #expect(clientInjection.resolve().name == "test")
      clientInjection.override(with: NamedClient("pushed"))
      #expect(clientInjection.overrideCount == 1)
      let repository = repositoryInjection.resolve()
      #expect(repository.client.name == "pushed")
      #expect(await Task.detached { clientInjection.overrideCount }.value == 0)
      clientInjection.rollbackOverride()
      #expect(clientInjection.overrideCount == 0)
      // Built while the override was pushed: dropped by the rollback.
      #expect(repositoryInjection.resolve() !== repository)
      #expect(repositoryInjection.resolve().client.name == "test")
    }
  }

  @Test(.timeLimit(.minutes(4))) func aWorldKeepsOneInstancePerSingletonAndBuildsOnce() async {
    let builds = Counter()
    let counted = SendableInjection<NamedClient>(
      strategy: .singleton,
      instance: {
        builds.increment()
        return NamedClient("counted")
      }())
    await withIsolatedInjections {
      let first = counted.resolve()
      #expect(counted.resolve() === first)
      #expect(await Task.detached { counted.resolve() }.value !== first)
      #expect(await Task { counted.resolve() }.value === first)
    }
    #expect(builds.value == 2)
  }

  @Test func aScopeOpenedOffTheMainActorKeepsWhatIsBuiltInsideIt() async {
    await withIsolatedInjections {
      let outside = repositoryInjection.resolve()
      let (inside, viewModelClient) = await Self.resolveInAScopeOffTheMainActor()
      #expect(inside.client.name == "scoped")
      #expect(viewModelClient == "scoped")
      #expect(repositoryInjection.resolve() === outside)
      #expect(ViewModelScreen().viewModel.repository === outside)
    }
  }

  /// A main-actor singleton built while a sendable client it depends on was overridden is
  /// built anew after the rollback, whether the override was pushed on the main actor or off it.
  @Test(arguments: [false, true])
  func aMainActorDependentOfASendableOverrideIsRebuiltAfterTheRollback(offTheMainActor: Bool) async {
    await withIsolatedInjections {
      let before = ViewModelScreen().viewModel
      if offTheMainActor {
        await Self.pushOffTheMainActor(NamedClient("pushed"))
      } else {
        clientInjection.override(with: NamedClient("pushed"))
      }
      let during = ViewModelScreen().viewModel
      #expect(during === before)
      let dependent = SendableInjection<NamedRepository>(
        strategy: .singleton, instance: NamedRepository(clientInjection.resolve()))
      let mainDependent = Injection<ViewModel>(strategy: .singleton, instance: ViewModel(dependent.resolve()))
      final class Holder {
        @Instance var viewModel: ViewModel
        init(_ injection: Injection<ViewModel>) { _viewModel = Instance(injection) }
      }
      let built = Holder(mainDependent).viewModel
      #expect(built.repository.client.name == "pushed")
      if offTheMainActor {
        await Self.rollBackOffTheMainActor()
      } else {
        clientInjection.rollbackOverride()
      }
      let rebuilt = Holder(mainDependent).viewModel
      #expect(rebuilt !== built)
      #expect(rebuilt.repository.client.name == "test")
      #expect(ViewModelScreen().viewModel === before)
    }
  }

  @concurrent private static func pushOffTheMainActor(_ client: NamedClient) async {
    clientInjection.override(with: client)
  }

  @concurrent private static func rollBackOffTheMainActor() async {
    clientInjection.rollbackOverride()
  }

  @Test(.timeLimit(.minutes(4))) func aSynchronousScopeAppliesOnItsThreadOnly() async {
    await withIsolatedInjections {
      let names = await Task.detached {
        let inside = plainClientInjection.withOverride({ NamedClient("decorated(\($0.name))") }) {
          plainClientInjection.resolve().name
        }
        return (inside, plainClientInjection.resolve().name)
      }.value
      #expect(names.0 == "decorated(live)")
      #expect(names.1 == "live")
    }
  }

  /// Opens a scope on the concurrent executor, in the current task (so in its world), and
  /// resolves there: a sendable repository, and a main-actor view model that holds one.
  @concurrent private static func resolveInAScopeOffTheMainActor() async -> (NamedRepository, String) {
    await clientInjection.withOverride(NamedClient("scoped")) {
      let repository = repositoryInjection.resolve()
      let viewModelClient = await MainActor.run { ViewModelScreen().viewModel.repository.client.name }
      return (repository, viewModelClient)
    }
  }
}
