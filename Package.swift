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
    .target(name: "ExampleServices", dependencies: ["Inject"], path: "Examples/ExampleServices"),
    .executableTarget(
      name: "InjectExample", dependencies: ["ExampleServices", "Inject"], path: "Examples/InjectExample"),
    .testTarget(name: "InjectTests", dependencies: ["Inject"]),
    .testTarget(name: "InjectTestingTests", dependencies: ["Inject", "InjectTesting"]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
