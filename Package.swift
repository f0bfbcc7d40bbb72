// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "Inject",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "Inject", targets: ["Inject"]),
    .library(name: "InjectTesting", targets: ["InjectTesting"]),
    .executable(name: "InjectExample", targets: ["InjectExample"]),
  ],
  targets: [
    .target(name: "Inject", dependencies: ["_InjectShims"]),
    // An atomic that code inlined into consumers reads on every deployment target (C11).
    .target(name: "_InjectShims"),
    .target(name: "InjectTesting", dependencies: ["Inject"]),
    .target(name: "ServicePackage", dependencies: ["Inject"], path: "Examples/ServicePackage"),
    .executableTarget(
      name: "InjectExample", dependencies: ["ServicePackage", "Inject"], path: "Examples/InjectExample"),
    // The realistic example (swift run ProfileApp): a package that publishes an async API client
    // and a repository, a feature module with a view model and a view, and their tests.
    .target(name: "ProfileKit", dependencies: ["Inject"], path: "Examples/ProfileKit"),
    .target(name: "ProfileFeature", dependencies: ["Inject", "ProfileKit"], path: "Examples/ProfileFeature"),
    .executableTarget(
      name: "ProfileApp", dependencies: ["Inject", "ProfileFeature", "ProfileKit"], path: "Examples/ProfileApp"),
    .testTarget(name: "ProfileAppTests", dependencies: ["Inject", "InjectTesting", "ProfileFeature", "ProfileKit"]),
    // The examples launched as processes: the app as a UI test launches it (live, with its launch
    // override, as an Xcode preview), and InjectExample's misuse warning. Depending on the
    // executables makes `swift test` build them.
    .testTarget(name: "ExampleProcessTests", dependencies: ["InjectExample", "ProfileApp"]),
    // What the test targets share: the bound that stops an exit test's child process that runs
    // too long or grows too large, and the process's resident memory.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "InjectTests", dependencies: ["Inject", "InjectTesting", "TestSupport"]),
    .testTarget(name: "InjectTestingTests", dependencies: ["Inject", "InjectTesting", "TestSupport"]),
    // The documentation's code samples, compiled and run (scripts/check-doc-snippets).
    .target(name: "DocumentationFixtures", dependencies: ["ServicePackage"], path: "Tests/DocumentationFixtures"),
    .testTarget(
      name: "DocumentationTests",
      dependencies: ["DocumentationFixtures", "Inject", "InjectTesting", "ProfileKit", "ServicePackage", "TestSupport"]
    ),
    // The 1.x API in the Swift 6 language mode: what compiles there, and how it behaves.
    .testTarget(name: "InjectLegacyTests", dependencies: ["DocumentationFixtures", "Inject"]),
    // 1.x code, unchanged, in the Swift 5 language mode that 1.x users had: the isolation that
    // 1.x's main-actor types gave their consumers, and the 1.x samples of the documentation.
    .testTarget(
      name: "InjectLegacySwift5Tests", dependencies: ["DocumentationFixtures", "Inject"],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    // The 2.0 API in the Swift 5 language mode: consumers of `@Instance` are main-actor-isolated,
    // as in 1.1.
    .testTarget(
      name: "InjectSwift5Tests", dependencies: ["Inject", "InjectTesting"], swiftSettings: [.swiftLanguageMode(.v5)]),
  ],
  swiftLanguageModes: [.v6]
)

// Every target: the upcoming features of the next language mode; but 1.x code keeps 1.x's
// existentials written without `any`, as 1.x users wrote them. Warnings are errors in CI only
// (`.ci/run` builds with `-Xswiftc -warnings-as-errors`), never here: Swift Build, the build
// system of Xcode 26, builds a dependency with `-suppress-warnings`, and fails the dependent's
// build when the dependency's manifest adds `-warnings-as-errors` too.
for target in package.targets where target.name != "_InjectShims" {
  let existentialAny: [SwiftSetting] =
    target.name == "InjectLegacySwift5Tests" ? [] : [.enableUpcomingFeature("ExistentialAny")]
  target.swiftSettings =
    (target.swiftSettings ?? []) + existentialAny + [
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
