public import Inject

/// What the greeter says hello with.
public protocol Salutation: Sendable {
  /// The word of the salutation.
  var word: String { get }
}

/// The salutation of the app, and the one that tests get.
public struct Hello: Salutation {
  /// The word of the salutation.
  public let word: String

  /// A salutation of `word`.
  public init(_ word: String) { self.word = word }
}

/// The salutation, published beside its implementation.
public let salutationInjection = Injection<any Salutation>(
  strategy: .singleton, instance: Hello("Hello"), test: Hello("Test hello"))

/// A consumer of the salutation.
@MainActor
public final class Greeter {
  @Instance(salutationInjection) private var salutation

  /// A greeter that reads the salutation when it first greets.
  public init() {}

  /// A greeting of `name`.
  public func greet(_ name: String) -> String { "\(salutation.word), \(name)!" }
}

/// A salutation per language, from a family.
public let salutations = InjectionFamily<String, any Salutation>(
  strategy: .shared, instance: { language in Hello(language == "fr" ? "Bonjour" : "Hello") },
  test: { language in Hello("Test \(language)") })

/// A greeter in one language.
@MainActor
public final class LocalGreeter {
  @Instance private var salutation: any Salutation

  /// A greeter in `language`.
  public init(language: String) { _salutation = Instance(salutations[language]) }

  /// A greeting of `name`.
  public func greet(_ name: String) -> String { "\(salutation.word), \(name)!" }
}
