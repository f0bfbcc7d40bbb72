import Inject
import TestSupport
import Testing

/// Which world the main actor's general path resolves a consumer in, when the consumer was made
/// outside every world and reads inside one: the path reads the current task's world only
/// while the main actor knows of a world alive, and a world made on another thread tells the
/// main actor before any code of the world's can run there.
///
/// Each test runs in a child process: the telemetry and the count of worlds alive are the
/// process's, and a world of another test would make the main actor read the task-local anyway.
@Suite struct GeneralPathWorldTests {
  /// With a telemetry installed (the general path, and no world alive until the loop makes
  /// one), a consumer made outside every world and read on the main actor by a task of a test
  /// world made on another thread gets the test value, each of 200 times; read outside after
  /// that world ended, the live one.
  @Test(.timeLimit(.minutes(4))) func aConsumerReadInAWorldMadeOffTheMainActorResolvesThere() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run { installTelemetry(Silent()) }
      for _ in 0..<200 {
        await MainActor.run { Held.consumer = Consumer(Held.injection) }
        let read = await Task.detached {
          // A world made on this thread; its task reads on the main actor.
          withIsolatedInjections { Task { @MainActor in Held.consumer?.service.name } }
        }.value
        let name = await read.value
        precondition(name == "test", "read in a test world, the consumer got \(name ?? "nothing")")
      }
      let outside = await MainActor.run { Consumer(Held.injection).service.name }
      precondition(outside == "live", "read outside every world, a consumer got \(outside)")
    }
  }
}

/// What the child process keeps on the main actor: made outside every world.
@MainActor
private enum Held {
  static let injection = Injection<any Service>(
    strategy: .onDemand, instance: ServiceImplementation("live"), test: ServiceImplementation("test"))
  static var consumer: Consumer<any Service>?
}

/// A telemetry that records nothing: installed, it sends every resolution down the general path.
private struct Silent: InjectionTelemetry {
  func record(_ event: InjectionEvent) {}
}
