import Inject
import InjectTesting
import Testing

// The Diagnostics article's actor sample: a `.singleton` actor that holds a `.shared` instance
// through `@SendableInstance`, a captive dependency once the actor has read it.

/// Downloads feeds for the screens that show one, released when none does.
final class FeedDownloader: Sendable {}
let feedDownloaderInjection = SendableInjection<FeedDownloader>(strategy: .shared, instance: FeedDownloader())

/// Syncs for the life of the app, and keeps the downloader for ever once it has read it.
actor FeedSync {
  @SendableInstance(feedDownloaderInjection) var downloader

  func sync() {
    _ = downloader
  }
}
let feedSyncInjection = SendableInjection<FeedSync>(strategy: .singleton, instance: FeedSync())

@Suite(.isolatedInjections)
@MainActor struct ActorGraphSamples {
  @Test func theActorsCaptiveDownloaderIsFoundOnceItHasReadIt() async {
    let feedSync = feedSyncInjection.resolve()
    #expect(InjectionGraph.capture().errors.isEmpty)
    await feedSync.sync()
    // The message the Diagnostics article quotes.
    #expect(
      InjectionGraph.capture().errors.map(\.message) == [
        "Captive dependency: SendableInjection<FeedSync> (.singleton, published at "
          + "DocumentationTests/ActorGraphSamples.swift:20) holds SendableInjection<FeedDownloader> (.shared, "
          + "published at DocumentationTests/ActorGraphSamples.swift:10) through `downloader` at "
          + "DocumentationTests/ActorGraphSamples.swift:14. The holder is kept for the life of its world, so the "
          + ".shared instance of SendableInjection<FeedDownloader> is never released: a .singleton in disguise. To "
          + "fix this, publish it with .singleton if it should live that long, or give the holder a shorter "
          + "lifetime (.shared or .onDemand), or resolve the .shared instance only in a consumer that is released."
      ])
  }
}
