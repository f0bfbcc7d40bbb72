import Greeter
import GreeterSwift5
import Inject
import InjectTesting
import Testing

@Suite(.isolatedInjections)
@MainActor struct GreeterTests {
  @Test func greetsWithTheTestValue() {
    #expect(Greeter().greet("Ada") == "Test hello, Ada!")
    #expect(LegacyGreeter().greet("Ada") == "Test hello, Ada.")
  }

  @Test(.overriding(salutationInjection, with: Hello("Bonjour")))
  func greetsWithTheOverride() {
    #expect(Greeter().greet("Ada") == "Bonjour, Ada!")
  }

  @Test func greetsWithAScopedOverride() {
    salutationInjection.withOverride(Hello("Bonjour")) {
      #expect(LegacyGreeter().greet("Grace") == "Bonjour, Grace.")
    }
  }
}
