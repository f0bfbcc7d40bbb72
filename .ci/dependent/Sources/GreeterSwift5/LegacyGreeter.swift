import Greeter
import Inject

/// A consumer of the salutation in the Swift 5 language mode.
public final class LegacyGreeter {
  @Instance(salutationInjection) private var salutation

  /// A greeter that reads the salutation when it first greets.
  public init() {}

  /// A greeting of `name`.
  public func greet(_ name: String) -> String { "\(salutation.word), \(name)." }
}
