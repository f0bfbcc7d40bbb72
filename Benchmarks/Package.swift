// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that the root package keeps zero dependencies.
let package = Package(
  name: "InjectBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "Inject", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
  ],
  targets: [
    .executableTarget(
      name: "InjectBenchmarks",
      dependencies: [
        .product(name: "Inject", package: "Inject"),
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "Swinject", package: "Swinject"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        "FactoryStyle",
      ],
      path: "Benchmarks/InjectBenchmarks",
      swiftSettings: [.swiftLanguageMode(.v6)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(name: "BenchmarkReport", swiftSettings: [.swiftLanguageMode(.v6)]),
    // Factory's `ParameterFactory`, emulated (the package mirror does not serve Factory): a module
    // of its own, as Factory is.
    .target(name: "FactoryStyle", swiftSettings: [.swiftLanguageMode(.v6)]),
    .executableTarget(
      name: "InjectProfile",
      dependencies: [
        .product(name: "Inject", package: "Inject"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        "FactoryStyle",
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    // What a rollback costs against what it drops and what is stored elsewhere (BENCHMARKS.md).
    .executableTarget(
      name: "RollbackCost",
      dependencies: [.product(name: "Inject", package: "Inject")],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
  ]
)
