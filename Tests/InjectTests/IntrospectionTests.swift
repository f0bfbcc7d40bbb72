import Inject
import InjectTesting
import Testing

@Suite(.misusesOnPurpose) @MainActor struct IntrospectionTests {
  @Test func injectionDescribesItsStackTopFirst() {
    let injection = Injection<any Service>(
      strategy: .shared, instance: ServiceImplementation("a"), fileID: "Services/Service.swift", line: 12)
    let consumer = Consumer(injection)
    _ = consumer.service
    injection.override(with: ServiceImplementation("mock"), strategy: .singleton, fileID: "Tests/A.swift", line: 9)
    injection.override(with: { $0 }, fileID: "Tests/A.swift", line: 10)
    #expect(
      String(reflecting: injection) == """
        Injection<Service> published at Services/Service.swift:12, strategy .shared
          override layer 2: closure, .shared, pushed at Tests/A.swift:10
          override layer 1: instance, .singleton, pushed at Tests/A.swift:9
          the published layer: instance, .shared, published at Services/Service.swift:12, holds an instance
        """)
  }

  @Test func inATestWorldTheTestsStackIsShownAboveTheGlobalOne() {
    let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "Services/Numbers.swift", line: 3)
    injection.override(with: 2, fileID: "Tests/Global.swift", line: 1)
    defer { injection.rollbackOverride() }
    withIsolatedInjections {
      injection.override(with: 3, fileID: "Tests/Setup.swift", line: 5)
      #expect(
        String(reflecting: injection) == """
          Injection<Int> published at Services/Numbers.swift:3, strategy .singleton
            the test's override layer 1: instance, .singleton, pushed at Tests/Setup.swift:5
            override layer 1: instance, .singleton, pushed at Tests/Global.swift:1
            the published layer: instance, .singleton, published at Services/Numbers.swift:3
          """)
    }
    #expect(String(reflecting: injection).contains("the test's") == false)
  }

  @Test func delegatingLayerNamesTheOtherInjection() {
    let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "App/Numbers.swift", line: 1)
    let other = Injection<Int>(strategy: .onDemand, instance: 2, fileID: "App/Numbers.swift", line: 2)
    injection.override(with: other, fileID: "Tests/A.swift", line: 5)
    #expect(
      String(reflecting: injection).contains(
        "override layer 1: delegates to Injection<Int> (App/Numbers.swift:2), pushed at Tests/A.swift:5"))
  }

  @Test func injectionMirrorListsStrategyLocationAndLayers() {
    let injection = Injection<Int>(strategy: .onDemand, instance: 1, fileID: "App/Numbers.swift", line: 1)
    let children = Dictionary(
      uniqueKeysWithValues: Mirror(reflecting: injection).children.compactMap { child in
        child.label.map { ($0, child.value) }
      })
    #expect(children["strategy"] as? Strategy == .onDemand)
    #expect(children["publishedAt"] as? CodeLocation == CodeLocation(fileID: "App/Numbers.swift", line: 1))
    #expect((children["layers"] as? [String])?.count == 1)
  }

  @Test func instanceSaysWhatItHolds() {
    let injection = Injection<Int>(strategy: .singleton, instance: 1, fileID: "App/Numbers.swift", line: 1)
    let consumer = Consumer(injection, fileID: "App/Screen.swift", line: 8)
    let prefix = "@Instance at App/Screen.swift:8 of Injection<Int> (App/Numbers.swift:1): "
    #expect(String(reflecting: consumer.$service) == prefix + "not resolved yet")
    _ = consumer.service
    #expect(String(reflecting: consumer.$service) == prefix + "resolved")
    consumer.service = 2
    #expect(String(reflecting: consumer.$service) == prefix + "local value")
  }
}
