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
    .testTarget(name: "InjectTests", dependencies: ["Inject"]),
    .testTarget(name: "InjectTestingTests", dependencies: ["Inject", "InjectTesting"]),
    // 1.x code, unchanged: the one target where deprecation warnings are expected.
    .testTarget(
      name: "InjectLegacyTests", dependencies: ["Inject"],
      swiftSettings: [.treatWarning("DeprecatedDeclaration", as: .warning)]),
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
