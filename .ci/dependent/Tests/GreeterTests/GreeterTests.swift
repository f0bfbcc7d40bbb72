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

  @Test func greetsInALanguageWithTheTestValue() {
    #expect(LocalGreeter(language: "fr").greet("Ada") == "Test fr, Ada!")
  }

  @Test(.overriding(salutations, with: { language in Hello("Hi in \(language)") }))
  func greetsInEveryLanguageWithTheFamilysOverride() {
    salutations["de"].override(with: Hello("Hallo"))
    #expect(LocalGreeter(language: "fr").greet("Ada") == "Hi in fr, Ada!")
    #expect(LocalGreeter(language: "de").greet("Ada") == "Hallo, Ada!")
  }
}
