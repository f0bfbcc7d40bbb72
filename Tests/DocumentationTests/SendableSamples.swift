public import Inject
import InjectTesting
import Testing

// The samples of SendableInjection's documentation: an image client published for any
// isolation, an actor that consumes it, a scope and a trait that override it.

/// A client that any isolation may call.
public protocol ImageClient: Sendable {
  var name: String { get }
  func image(for url: String) async throws -> String
  func upload(_ report: String) async throws
}

struct LiveImageClient: ImageClient {
  var name: String { "live" }
  func image(for url: String) async throws -> String { "image at \(url)" }
  func upload(_ report: String) async throws {}
}

struct MockImageClient: ImageClient {
  static let image = "mock image"
  var name: String { "mock" }
  func image(for url: String) async throws -> String { Self.image }
  func upload(_ report: String) async throws {}
}

/// The image client, published for any isolation.
public let imageClientInjection = SendableInjection<any ImageClient>(strategy: .singleton, instance: LiveImageClient())

/// The image client, with a launch override for UI tests and demo builds.
public let demoImageClientInjection = SendableInjection<any ImageClient>(
  strategy: .singleton,
  instance: LiveImageClient(),
  launchOverrides: [.argument("-mock-images", with: MockImageClient())]
)

actor ImageLoader {
  @SendableInstance(imageClientInjection) var client

  func image(for url: String) async throws -> String {
    try await client.image(for: url)
  }
}

/// A cache that names, synchronously, the client it would load through.
final class ImageCache: Sendable {
  static let shared = ImageCache()

  func image(for url: String) throws -> String {
    "\(imageClientInjection.resolve().name): \(url)"
  }
}

@Suite struct SendableSamples {
  let url = "https://example.com/a.png"

  @Test(.overriding(imageClientInjection, with: MockImageClient()))
  func loadsThroughTheMock() async throws {
    #expect(try await ImageLoader().image(for: url) == MockImageClient.image)
  }

  @Test func aScopeReplacesTheClientForItsCode() throws {
    let image = try imageClientInjection.withOverride(MockImageClient()) {
      try ImageCache.shared.image(for: url)
    }
    #expect(image == "mock: \(url)")
  }

  @Test func aDetachedTaskResolvesWithNoStoredProperty() async throws {
    let report = "report"
    Task.detached { try await imageClientInjection.resolve().upload(report) }
    let name = await Task.detached { imageClientInjection.resolve().name }.value
    #expect(name == "live")
    #expect(demoImageClientInjection.resolve().name == "live")
  }
}
