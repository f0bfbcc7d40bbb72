import Inject
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The dependency the tests publish: a class, so `===` and `weak` tell instances apart.
protocol Service: AnyObject {
  var name: String { get }
}

/// An implementation that says which factory built it.
final class ServiceImplementation: Service {
  let name: String
  init(_ name: String) { self.name = name }
}

/// A factory that counts its calls, so tests can say how often an injection builds.
@MainActor
final class Factory {
  private(set) var calls = 0
  let name: String

  init(_ name: String = "implementation") { self.name = name }

  func make() -> any Service {
    calls += 1
    return ServiceImplementation("\(name) #\(calls)")
  }
}

/// A fresh injection and its counting factory: each test owns its own, so tests that run in
/// parallel never share an injection that they change.
@MainActor
func makeInjection(
  _ strategy: Strategy, name: String = "implementation"
) -> (Injection<any Service>, Factory) {
  let factory = Factory(name)
  return (Injection<any Service>(strategy: strategy, instance: factory.make()), factory)
}

/// A class consumer of an injection chosen at run time.
final class Consumer<T> {
  @Instance var service: T

  init(_ injection: Injection<T>, fileID: StaticString = #fileID, line: UInt = #line) {
    _service = Instance(injection, fileID: fileID, line: line)
  }
}

extension ExitTest.Result {
  /// What the child process of an exit test wrote to its standard error, as text.
  var standardErrorText: String { String(decoding: standardErrorContent, as: UTF8.self) }
}

/// How many of `count` debug warnings a capture holds: all in debug builds, none in release
/// builds, which show no warnings.
func expectedWarningCount(_ count: Int) -> Int {
  #if DEBUG
  count
  #else
  0
  #endif
}

/// The `warnings` that a capture holds: all in debug builds, none in release builds, which
/// show no warnings.
func shownInDebugBuilds(_ warnings: [String]) -> [String] {
  #if DEBUG
  warnings
  #else
  []
  #endif
}

/// Whether the tests run under ThreadSanitizer or AddressSanitizer, as `.ci/run` runs them.
///
/// Found by the runtime's entry point in the process, since Swift has no compile-time condition
/// for it. Timing ratios measured under a sanitizer measure the sanitizer.
let isUnderSanitizer: Bool = {
  let process = dlopen(nil, RTLD_NOW)
  defer { if let process { dlclose(process) } }
  return dlsym(process, "__tsan_init") != nil || dlsym(process, "__asan_init") != nil
}()
