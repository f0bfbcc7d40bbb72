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

/// Renders thumbnails with the client its factory resolved: `resolve()`'s sample.
final class ThumbnailRenderer: Sendable {
  let client: any ImageClient
  init(client: any ImageClient) { self.client = client }
}

let thumbnailRendererInjection = SendableInjection<ThumbnailRenderer>(
  strategy: .singleton, instance: ThumbnailRenderer(client: imageClientInjection.resolve()))

/// A nonisolated consumer that the introspection sample describes.
final class Thumbnails {
  @SendableInstance var client: any ImageClient
  init(_ injection: SendableInjection<any ImageClient>) {
    _client = SendableInstance(injection, fileID: "App/Thumbnails.swift", line: 8)
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

  @Test func aFactoryResolvesWhatItBuildsWith() {
    #expect(thumbnailRendererInjection.resolve().client.name == "live")
  }

  @Test func anInjectionAndAConsumerDescribeThemselves() {
    let imageClientInjection = SendableInjection<any ImageClient>(
      strategy: .singleton, instance: LiveImageClient(), fileID: "App/ImageClient.swift", line: 9)
    let thumbnails = Thumbnails(imageClientInjection)
    _ = thumbnails.client
    // The sample's `debugPrint` writes here, which the test checks, not to the test's output.
    var printed = ""
    func debugPrint(_ item: Any) { Swift.debugPrint(item, to: &printed) }
    debugPrint(imageClientInjection)
    // SendableInjection<ImageClient> published at App/ImageClient.swift:9, strategy .singleton
    //   the published layer: instance, .singleton, published at App/ImageClient.swift:9, holds an instance
    debugPrint(thumbnails.$client)
    // @SendableInstance at App/Thumbnails.swift:8 of SendableInjection<ImageClient> (App/ImageClient.swift:9): resolved
    #expect(
      thumbnails.$client.debugDescription
        == "@SendableInstance at App/Thumbnails.swift:8 of SendableInjection<ImageClient> (App/ImageClient.swift:9): resolved"
    )
    #expect(
      imageClientInjection.debugDescription == """
        SendableInjection<ImageClient> published at App/ImageClient.swift:9, strategy .singleton
          the published layer: instance, .singleton, published at App/ImageClient.swift:9, holds an instance
        """)
    #expect(printed == imageClientInjection.debugDescription + "\n" + thumbnails.$client.debugDescription + "\n")
  }

  @Test(.timeLimit(.minutes(4))) func aDetachedTaskResolvesWithNoStoredProperty() async throws {
    let report = "report"
    Task.detached { try await imageClientInjection.resolve().upload(report) }
    let name = await Task.detached { imageClientInjection.resolve().name }.value
    #expect(name == "live")
    #expect(demoImageClientInjection.resolve().name == "live")
  }
}
