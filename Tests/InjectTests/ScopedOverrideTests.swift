import Inject
import InjectTesting
import Testing

@Suite(.misusesOnPurpose) @MainActor struct ScopedOverrideTests {
  @Test func scopedOverrideAppliesInsideAndIsGoneAfter() {
    let (injection, factory) = makeInjection(.singleton)
    let mock = ServiceImplementation("mock")
    let inside = injection.withOverride(mock) { Consumer(injection).service }
    #expect(inside === mock)
    #expect(injection.overrideCount == 0)
    #expect(Consumer(injection).service.name == "implementation #1")
    #expect(factory.calls == 1)
  }

  @Test func scopedOverrideIsRestoredWhenTheOperationThrows() {
    let (injection, _) = makeInjection(.singleton)
    let original = Consumer(injection).service
    #expect(throws: TestError.self) {
      try injection.withOverride(ServiceImplementation("mock")) {
        #expect(Consumer(injection).service.name == "mock")
        throw TestError()
      }
    }
    #expect(Consumer(injection).service === original)
  }

  @Test func asyncScopedOverrideIsRestoredWhenTheOperationThrows() async {
    let (injection, _) = makeInjection(.singleton)
    let original = Consumer(injection).service
    await #expect(throws: TestError.self) {
      try await injection.withOverride(ServiceImplementation("mock")) {
        await Task.yield()
        #expect(Consumer(injection).service.name == "mock")
        throw TestError()
      }
    }
    #expect(Consumer(injection).service === original)
  }

  @Test func scopedOverridesNestAndRestoreExactly() {
    let (injection, _) = makeInjection(.onDemand)
    let outer: @MainActor (any Service) -> any Service = { ServiceImplementation("outer(\($0.name))") }
    let inner: @MainActor (any Service) -> any Service = { ServiceImplementation("inner(\($0.name))") }
    injection.withOverride(outer) {
      injection.withOverride(inner) {
        #expect(Consumer(injection).service.name == "inner(outer(implementation #1))")
      }
      #expect(Consumer(injection).service.name == "outer(implementation #2)")
    }
    #expect(Consumer(injection).service.name == "implementation #3")
  }

  @Test func scopedOverrideWinsOverTheGlobalStackAndLeavesItAlone() {
    let (injection, _) = makeInjection(.singleton)
    let global = ServiceImplementation("global")
    injection.override(with: global)
    injection.withOverride(ServiceImplementation("scoped")) {
      #expect(Consumer(injection).service.name == "scoped")
    }
    #expect(Consumer(injection).service === global)
    #expect(injection.overrideCount == 1)
  }

  @Test func scopedLayerHasItsOwnStorage() {
    let (injection, _) = makeInjection(.singleton)
    weak var weakMock: (any Service)?
    injection.withOverride(ServiceImplementation("mock"), strategy: .singleton) {
      weakMock = Consumer(injection).service
      #expect(weakMock != nil)
      #expect(Consumer(injection).service === weakMock)
    }
    #expect(weakMock == nil, "the scope's singleton is released with the scope")
  }

  @Test func scopedOverrideDelegatesToAnotherInjectionInTheScopesOwnWorld() {
    let (injection, _) = makeInjection(.singleton)
    let (other, otherFactory) = makeInjection(.singleton, name: "other")
    let globalOther = Consumer(other).service
    injection.withOverride(other) {
      let scoped = Consumer(injection).service
      #expect(scoped.name == "other #2", "the scope is a fresh world: the other injection builds its own")
      #expect(Consumer(injection).service === scoped)
      #expect(Consumer(other).service === scoped, "and keeps it in the scope, for both injections")
    }
    #expect(Consumer(other).service === globalOther)
    #expect(otherFactory.calls == 2)
  }

  @Test(.timeLimit(.minutes(4))) func childTasksInheritTheScopedOverride() async {
    let (injection, _) = makeInjection(.onDemand)
    await injection.withOverride(ServiceImplementation("mock"), strategy: .singleton) {
      async let child = resolvedName(injection)
      let fromChild = await child
      let fromGroup = await withTaskGroup(of: String.self) { group in
        group.addTask { @MainActor in Consumer(injection).service.name }
        return await group.next() ?? ""
      }
      let fromDetached = await Task.detached { @MainActor in Consumer(injection).service.name }.value
      #expect(fromChild == "mock")
      #expect(fromGroup == "mock")
      #expect(fromDetached == "implementation #1", "a detached task is not a child")
    }
  }

  /// Many tasks override the same injection differently at the same time; each sees its own.
  @Test(.timeLimit(.minutes(4))) func concurrentScopesOfTheSameInjectionSeeOnlyTheirOwn() async {
    let (injection, factory) = makeInjection(.singleton)
    let count = 8
    let barrier = Barrier(count)
    var seen: [Int: [String]] = [:]
    await withTaskGroup(of: (Int, [String]).self) { group in
      for index in 0..<count {
        group.addTask { await (index, readsInScope(of: injection, index: index, barrier: barrier)) }
      }
      for await (index, names) in group {
        seen[index] = names
      }
    }
    #expect(barrier.maximumWaiting == count)
    for index in 0..<count {
      #expect(seen[index] == Array(repeating: "mock \(index)", count: 3))
    }
    #expect(factory.calls == 0)
    #expect(Consumer(injection).service.name == "implementation #1")
  }
}

private struct TestError: Error {}

/// The name of the instance a new consumer of `injection` gets.
@MainActor
private func resolvedName(_ injection: Injection<any Service>) -> String {
  Consumer(injection).service.name
}

/// Overrides `injection` with `mock <index>` in a scope, and reads it before and after every
/// other scope has opened.
@MainActor
private func readsInScope(of injection: Injection<any Service>, index: Int, barrier: Barrier) async -> [String] {
  await injection.withOverride(ServiceImplementation("mock \(index)"), strategy: .singleton) {
    var names = [Consumer(injection).service.name]
    // Every scope is open after this: the reads below interleave with all the others.
    await barrier.arrive()
    names.append(Consumer(injection).service.name)
    await Task.yield()
    names.append(Consumer(injection).service.name)
    return names
  }
}

/// Suspends each arriving task until `count` tasks have arrived.
@MainActor
private final class Barrier {
  private let count: Int
  private var arrived = 0
  private(set) var maximumWaiting = 0

  init(_ count: Int) { self.count = count }

  func arrive() async {
    arrived += 1
    maximumWaiting = max(maximumWaiting, arrived)
    while arrived < count {
      await Task.yield()
    }
  }
}
