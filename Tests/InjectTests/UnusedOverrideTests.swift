import Inject
import Testing

/// A strict test reports every override it gave that no consumer resolved through.
///
/// A trait's, a `withOverride`'s or an `override(with:)` in the test world. Each test runs a
/// strict world of its own through the package API that the trait uses, and collects the
/// reports.
@Suite @MainActor struct UnusedOverrideTests {
  @Test func anOverrideNothingResolvedIsReportedWithWhereItWasGiven() async {
    let graph = Graph()
    let (untested, unused) = await strictTest {
      graph.api.withOverride(MockAPI("used"), fileID: "Tests/ScreenTests.swift", line: 4) {
        _ = Screen(graph).repository
      }
      graph.session.withOverride(Session(api: MockAPI("never")), fileID: "Tests/ScreenTests.swift", line: 9) {}
    }
    #expect(
      untested.map(\.injection) == [
        "Injection<Repository> (InjectTests/Graph.swift:52)", "Injection<Session> (InjectTests/Graph.swift:50)",
      ],
      "the levels with neither a test value nor an override, not the api")
    #expect(unused.map(\.location) == [CodeLocation(fileID: "Tests/ScreenTests.swift", line: 9)])
    #expect(
      unused.first?.description
        == "Injection<Session> (InjectTests/Graph.swift:50): the override given at Tests/ScreenTests.swift:9 "
        + "overrides something the test never resolved: is the test overriding the wrong dependency? (An override "
        + "given after a .singleton that depends on it was resolved in the test comes too late for that singleton.)")
  }

  @Test(.timeLimit(.minutes(4))) func anOverrideResolvedOnlyByAChildTaskIsUsed() async {
    let (injection, _) = makeInjection(.singleton)
    let (_, unused) = await strictTest {
      await injection.withOverride(ServiceImplementation("scoped")) {
        async let name = MainActor.run { Consumer(injection).service.name }
        #expect(await name == "scoped")
      }
    }
    #expect(unused.isEmpty)
  }

  @Test func anOverrideOfTheDependencyOfASingletonResolvedBeforeItIsReported() async {
    let graph = Graph()
    let (_, unused) = await strictTest {
      _ = Screen(graph).repository
      graph.api.override(with: MockAPI("too late"), fileID: "Tests/ScreenTests.swift", line: 20)
      #expect(Screen(graph).repository.api.name == "live", "the test's singleton was built before")
    }
    #expect(unused.map(\.location) == [CodeLocation(fileID: "Tests/ScreenTests.swift", line: 20)])
  }

  @Test func aPushInTheTestWorldIsReportedUnlessResolved() async {
    let (injection, _) = makeInjection(.singleton)
    let (_, unused) = await strictTest {
      injection.override(with: ServiceImplementation("resolved"), fileID: "Tests/Setup.swift", line: 1)
      _ = Consumer(injection).service
      injection.override(with: ServiceImplementation("never"), fileID: "Tests/Setup.swift", line: 2)
      injection.rollbackOverride()
      injection.rollbackOverride()
    }
    #expect(unused.map(\.location) == [CodeLocation(fileID: "Tests/Setup.swift", line: 2)])
  }

  /// A push in an initializer is set-up, and not reported; the same push in the test's body is.
  ///
  /// A suite's `init()` runs in each test's world before the test: its overrides are the
  /// suite's set-up, which one test may leave untouched.
  @Test func aPushInAnInitializerIsSetUpAndNotReported() async {
    let (injection, _) = makeInjection(.singleton)
    let (_, unused) = await strictTest {
      _ = SetUp(pushing: injection)
      injection.override(with: ServiceImplementation("body"), fileID: "Tests/Body.swift", line: 3)
    }
    #expect(unused.map(\.location) == [CodeLocation(fileID: "Tests/Body.swift", line: 3)])
  }

  /// A suite's override trait is set-up for the injection it overrides only: a test's own
  /// override given at the same place (by a helper that makes traits, which every use calls at
  /// one location) is the test's, and reported unused.
  @Test func aSuiteTraitIsSetUpForItsOwnInjectionOnly() async {
    let graph = Graph()
    let helper = CodeLocation(fileID: "Tests/Traits.swift", line: 7)
    let (_, unused) = await withSuiteSetUpOverride(SuiteSetUp.Site(graph.api, at: helper)) {
      await strictTest {
        graph.api.withOverride(MockAPI("suite"), fileID: "Tests/Traits.swift", line: 7) {}
        graph.session.withOverride(Session(api: MockAPI("test")), fileID: "Tests/Traits.swift", line: 7) {}
      }
    }
    #expect(unused.map(\.injection) == ["Injection<Session> (InjectTests/Graph.swift:50)"])
  }

  @Test func aDecoratedOverrideIsUsedThroughItsDecorator() async {
    let (injection, _) = makeInjection(.onDemand)
    let (_, unused) = await strictTest {
      injection.withOverride(ServiceImplementation("mock")) {
        injection.withOverride({ ServiceImplementation("decorated(\($0.name))") }) {
          #expect(Consumer(injection).service.name == "decorated(mock)")
        }
      }
    }
    #expect(unused.isEmpty)
  }
}

/// Runs `body` in a strict test world, as `.isolatedInjections(strict: true)` does; returns the
/// untested resolutions and the unused overrides it reported.
@MainActor
private func strictTest(
  _ body: () async -> Void
) async -> (untested: [UntestedResolution], unused: [UnusedOverride]) {
  let untested = Locked<[UntestedResolution]>([])
  var unused: [UnusedOverride] = []
  await withIsolatedInjections(
    reportingLeaks: nil, reportingUntested: { report in untested.withLock { $0.append(report) } },
    reportingUnused: { unused.append($0) }, operation: body)
  return (untested.withLock { $0 }, unused)
}

/// A suite's set-up: its initializer pushes an override.
@MainActor
private struct SetUp {
  init(pushing injection: Injection<any Service>) {
    injection.override(with: ServiceImplementation("set-up"), fileID: "Tests/SetUp.swift", line: 1)
  }
}
