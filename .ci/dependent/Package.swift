// swift-tools-version: 6.0
// A package that depends on Inject as its users' packages do, by path here (by version for them):
// `.ci/run` builds it and runs its tests with `swift build --build-system swiftbuild`, the build
// system of Xcode 26, which rejects settings that a dependency's manifest must not impose.
import PackageDescription

let package = Package(
  name: "Dependent",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  dependencies: [.package(name: "Inject", path: "../..")],
  targets: [
    .target(name: "Greeter", dependencies: [.product(name: "Inject", package: "Inject")]),
    // The same consumer in the Swift 5 language mode, which users' code may still be in.
    .target(
      name: "GreeterSwift5", dependencies: ["Greeter", .product(name: "Inject", package: "Inject")],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    .testTarget(
      name: "GreeterTests",
      dependencies: [
        "Greeter", "GreeterSwift5", .product(name: "Inject", package: "Inject"),
        .product(name: "InjectTesting", package: "Inject"),
      ]),
  ]
)
