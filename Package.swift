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
    .target(name: "Inject"),
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
    .testTarget(name: "InjectTests", dependencies: ["Inject"]),
    .testTarget(name: "InjectTestingTests", dependencies: ["Inject", "InjectTesting"]),
    // The documentation's code samples, compiled and run (scripts/check-doc-snippets).
    .target(name: "DocumentationFixtures", dependencies: ["ServicePackage"], path: "Tests/DocumentationFixtures"),
    .testTarget(
      name: "DocumentationTests",
      dependencies: ["DocumentationFixtures", "Inject", "InjectTesting", "ProfileKit", "ServicePackage"]
    ),
    // 1.x code, unchanged: the one target where warnings are expected (deprecations, and 1.x's
    // existentials written without `any`).
    .testTarget(
      name: "InjectLegacyTests", dependencies: ["DocumentationFixtures", "Inject"],
      swiftSettings: [
        .treatWarning("DeprecatedDeclaration", as: .warning), .treatWarning("ExistentialAny", as: .warning),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

// Every target: warnings are errors (but for the exceptions a target names), and the upcoming
// features of the next language mode.
for target in package.targets {
  target.swiftSettings =
    [.treatAllWarnings(as: .error)] + (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
