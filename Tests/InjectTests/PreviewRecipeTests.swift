import Inject
import InjectTesting
import Testing

/// The previews recipe, checked without SwiftUI: a preview renders its view after its closure
/// has returned, and resolution is lazy; a view built in a scope remembers the scope's
/// configuration, so what it renders later is the scope's override.
///
/// Each test publishes its own injection: a global override of it reaches no other test.
@Suite(.misusesOnPurpose) @MainActor struct PreviewRecipeTests {
  @Test func aViewBuiltInsideAScopedOverrideRendersTheOverrideOnceTheScopeHasEnded() {
    let injection = published()
    // `#Preview { injection.withOverride(Mock()) { Greeting(injection) } }`: the closure returns
    // the view, and SwiftUI reads its body later.
    let preview = injection.withOverride(ServiceImplementation("mock")) { Greeting(injection) }
    #expect(preview.body == "Hello from mock")
    #expect(Greeting(injection).body == "Hello from live", "a view built outside the scope gets the live value")
  }

  @Test func aViewRenderedInsideAScopedOverrideShowsTheOverride() {
    let injection = published()
    let rendered = injection.withOverride(ServiceImplementation("mock")) { Greeting(injection).body }
    #expect(rendered == "Hello from mock")
  }

  @Test func aGlobalOverrideAtTheTopOfThePreviewReachesTheViewRenderedAfterIt() {
    let injection = published()
    // `#Preview { injection.override(with: Mock()); return Greeting(injection) }`: a preview
    // process is its own app, so the override stays for the preview's life.
    let preview = preview {
      injection.override(with: ServiceImplementation("mock"))
      return Greeting(injection)
    }
    #expect(preview.body == "Hello from mock")
    #expect(Greeting(injection).body == "Hello from mock", "every view of the preview gets the override")
    injection.rollbackOverride()
    #expect(Greeting(injection).body == "Hello from live")
  }

}

/// A view shaped like a SwiftUI view: a struct that consumes an injection, whose `body` is read
/// on the main actor when it renders.
@MainActor
private struct Greeting {
  @Instance var service: any Service

  init(_ injection: Injection<any Service>) {
    _service = Instance(injection)
  }

  var body: String { "Hello from \(service.name)" }
}

/// An injection of its own for a test, whose live instance is named `live`.
@MainActor
private func published() -> Injection<any Service> {
  Injection<any Service>(strategy: .singleton, instance: ServiceImplementation("live"))
}

/// Runs a `#Preview` closure: SwiftUI calls it for the view, then renders the view after it
/// returned.
@MainActor
private func preview(_ content: () -> Greeting) -> Greeting {
  content()
}
