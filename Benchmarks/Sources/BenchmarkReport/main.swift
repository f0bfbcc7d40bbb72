// Reads the samples that `swift package benchmark --format histogramSamples` exported and prints
// the medians per operation, their ratios to the hand-written baselines and peers measured in
// the same runs, and whether each target of the benchmark issue is met.
//
// Usage: BenchmarkReport <directory of *.histogram.samples.tsv>...
//
// With several directories (one per run of the whole suite), each benchmark's value is the
// median of its medians in the runs: a burst of load on the machine during one run moves it
// less than it moves that run.

import Foundation

/// Each sample ran its body 1,000 times (`scalingFactor: .kilo`).
let operationsPerSample = 1_000.0

struct Measurement {
  var nanoseconds: Double = .nan
  var allocations: Double = .nan
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  let middle = sorted.count / 2
  return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

func load(_ directory: String) throws -> [String: Measurement] {
  var results: [String: Measurement] = [:]
  let files = try FileManager.default.contentsOfDirectory(atPath: directory)
  for file in files where file.hasSuffix(".histogram.samples.tsv") {
    // <baseline>.InjectBenchmarks.<name>.<metric>.histogram.samples.tsv, with the name's
    // spaces and slashes turned into underscores by the exporter.
    var parts = file.dropLast(".histogram.samples.tsv".count).split(separator: ".", omittingEmptySubsequences: false)
    let metric = String(parts.removeLast())
    guard let target = parts.firstIndex(of: "InjectBenchmarks") else { continue }
    let name = parts[(target + 1)...].joined(separator: ".")
    let text = try String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)
    let samples = text.split(separator: "\n").dropFirst().compactMap { Double($0) }
    let value = median(samples) / operationsPerSample
    switch metric {
    case "wallClock": results[name, default: Measurement()].nanoseconds = value
    case "mallocCountTotal": results[name, default: Measurement()].allocations = value
    default: continue
    }
  }
  return results
}

func key(_ name: String) -> String {
  name.replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "/", with: "_")
}

/// Each benchmark's median of its medians in `runs`.
func combine(_ runs: [[String: Measurement]]) -> [String: Measurement] {
  let names = Set(runs.flatMap(\.keys))
  return Dictionary(
    uniqueKeysWithValues: names.map { name in
      let measurements = runs.compactMap { $0[name] }
      return (
        name,
        Measurement(
          nanoseconds: median(measurements.map(\.nanoseconds).filter { !$0.isNaN }),
          allocations: median(measurements.map(\.allocations).filter { !$0.isNaN })
        )
      )
    })
}

let directories = CommandLine.arguments.dropFirst()
guard !directories.isEmpty else {
  print("usage: BenchmarkReport <directory>...")
  exit(2)
}
let results = combine(try directories.map(load))
guard !results.isEmpty else {
  print("No samples found in \(directories.joined(separator: ", ")).")
  exit(1)
}
print("Medians of \(directories.count) run\(directories.count == 1 ? "" : "s") of the whole suite.")

func measurement(_ name: String) -> Measurement { results[key(name)] ?? Measurement() }
func time(_ name: String) -> Double { measurement(name).nanoseconds }
func format(_ value: Double, _ digits: Int = 1) -> String {
  value.isNaN ? "–" : String(format: "%.\(digits)f", value)
}

/// Prints one scenario as a Markdown table: each row's median time, allocations, and ratio to
/// the row's baseline.
func table(_ title: String, _ rows: [(name: String, baseline: String)]) {
  print("\n### \(title)\n")
  print("| Benchmark | ns/op (median) | allocations/op | ratio | to |")
  print("| --- | ---: | ---: | ---: | --- |")
  for row in rows {
    let value = measurement(row.name)
    let ratio = row.baseline == row.name ? "1.00×" : "\(format(value.nanoseconds / time(row.baseline), 2))×"
    let label = row.name.split(separator: "/").last.map(String.init) ?? row.name
    let baseline = row.baseline.split(separator: "/").last.map(String.init) ?? row.baseline
    print("| \(label) | \(format(value.nanoseconds)) | \(format(value.allocations, 2)) | \(ratio) | \(baseline) |")
  }
}

let lazyRead = "read/baseline lazy var"
table(
  "1. Steady-state read of a resolved dependency",
  [
    ("read/baseline let", lazyRead), (lazyRead, lazyRead), ("read/Inject @Instance", lazyRead),
    ("read/Swinject resolve", lazyRead), ("read/swift-dependencies @Dependency", lazyRead),
  ])

let lazyGlobal = "create/baseline lazy var (global)"
let lazyNew = "create/baseline lazy var (new instance)"
let lazyWeak = "create/baseline lazy var (weak global)"
table(
  "2. Creating a consumer and reading it once",
  [
    (lazyGlobal, lazyGlobal), (lazyNew, lazyNew), ("create/baseline lazy var in a second object", lazyGlobal),
    (lazyWeak, lazyGlobal),
    ("create/Inject .singleton", lazyGlobal), ("create/Inject .shared", lazyWeak),
    ("create/Inject .shared", lazyGlobal), ("create/Inject .onDemand", lazyNew),
    ("create/Swinject .container", lazyGlobal), ("create/Swinject .weak", lazyGlobal),
    ("create/Swinject .transient", lazyNew), ("create/swift-dependencies live value", lazyGlobal),
  ])

table(
  "3. 10 vs 10,000 dependencies alive",
  [
    ("scale/Inject 10 injections", "scale/Inject 10 injections"),
    ("scale/Inject 10000 injections", "scale/Inject 10 injections"),
    ("scale/Swinject 10 registrations", "scale/Swinject 10 registrations"),
    ("scale/Swinject 10000 registrations", "scale/Swinject 10 registrations"),
  ])

let injectCreate = "create/Inject .singleton"
table(
  "4. Overrides",
  [
    ("override/Inject push + first read + rollback", injectCreate),
    ("override/Inject scoped override + first read", injectCreate),
    ("override/swift-dependencies withDependencies + first read", injectCreate),
    ("override/Inject first read inside a scope of another injection", injectCreate),
    ("override/Inject first read inside a scope of the same injection", injectCreate),
  ])

table(
  "5. The general path",
  [
    ("general/Inject .singleton in an isolated world", injectCreate),
    ("general/Inject .singleton with a no-op telemetry", injectCreate),
    ("general/Inject .singleton with preview and test values", injectCreate),
  ])

let familyLookup = "family/baseline dictionary lookup"
let familyWeakBox = "family/baseline lazy var (weak box dictionary)"
let familyConsumer = "family/Inject .shared consumer"
let sharedRead = "family/Inject read of a resolved .shared @Instance"
table(
  "6. Families: one dependency per key",
  [
    (familyLookup, familyLookup), ("family/Inject family[key]", familyLookup),
    (familyWeakBox, familyWeakBox), (familyConsumer, familyWeakBox),
    ("family/Factory-style (emulated) ParameterFactory .shared.scopeOnParameters", familyWeakBox),
    ("family/Swinject resolve(argument:) .weak", familyWeakBox),
    ("family/Swinject resolve(argument:) .transient", familyWeakBox),
    ("family/Factory-style (emulated) ParameterFactory .shared.scopeOnParameters", familyConsumer),
    ("family/Swinject resolve(argument:) .weak", familyConsumer),
    ("family/Swinject resolve(argument:) .transient", familyConsumer),
    (sharedRead, sharedRead), ("family/Inject read of a resolved family consumer", sharedRead),
    ("family/Inject read of a resolved family consumer", "read/Inject @Instance"),
  ])

// MARK: Targets

print("\n### Targets\n")
func check(_ description: String, _ value: Double, _ limit: Double, atMost: Bool = true) {
  let rounded = (value * 100).rounded() / 100
  let met = atMost ? rounded <= limit : rounded >= limit
  let target = "target \(atMost ? "≤" : "≥") \(format(limit, 1))"
  print("- \(met ? "met" : "MISSED"): \(description): \(format(value, 2)) (\(target))")
}
check("read: Inject / lazy var", time("read/Inject @Instance") / time(lazyRead), 1.0)
check("read (stretch): Inject / let", time("read/Inject @Instance") / time("read/baseline let"), 3.0)
check("create .singleton / lazy var", time("create/Inject .singleton") / time(lazyGlobal), 2.0)
check("create .shared / lazy var (weak global)", time("create/Inject .shared") / time(lazyWeak), 2.0)
check("create .onDemand / lazy var (new instance)", time("create/Inject .onDemand") / time(lazyNew), 2.0)
for peer in ["read/Swinject resolve", "read/swift-dependencies @Dependency"] {
  check("\(peer) / Inject read", time(peer) / time("read/Inject @Instance"), 10, atMost: false)
}
for (peer, inject) in [
  ("create/Swinject .container", "create/Inject .singleton"), ("create/Swinject .weak", "create/Inject .shared"),
  ("create/Swinject .transient", "create/Inject .onDemand"),
  ("create/swift-dependencies live value", "create/Inject .singleton"),
] {
  check("\(peer) / \(inject)", time(peer) / time(inject), 10, atMost: false)
}
check(
  "create .singleton in a scope's world / global path",
  time("general/Inject .singleton in an isolated world") / time("create/Inject .singleton"), 10)
check(
  "create .singleton with preview and test values / without",
  time("general/Inject .singleton with preview and test values") / time("create/Inject .singleton"), 1.05)
check("10,000 / 10 injections", time("scale/Inject 10000 injections") / time("scale/Inject 10 injections"), 1.2)
for (inject, baseline) in [
  ("create/Inject .singleton", lazyGlobal), ("create/Inject .shared", lazyWeak), ("create/Inject .onDemand", lazyNew),
] {
  check(
    "allocations beyond the baseline, \(inject)", measurement(inject).allocations - measurement(baseline).allocations, 1
  )
}
check("family[key] / dictionary lookup", time("family/Inject family[key]") / time(familyLookup), 2.0)
check(
  "create family .shared consumer / lazy var (weak box dictionary)", time(familyConsumer) / time(familyWeakBox), 2.5)
check(
  "read family consumer / read .shared @Instance",
  time("family/Inject read of a resolved family consumer") / time(sharedRead), 1.05)
