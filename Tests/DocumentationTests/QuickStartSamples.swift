public import Inject
import InjectTesting
import Testing

// The README's two quick starts, whole: each is published, consumed and tested here, and its
// tests run with the others (scripts/check-doc-snippets checks that the README shows these lines).

// MARK: - The main actor: a view model

/// Tells the temperature in a city.
public protocol WeatherClient: Sendable {
  /// The temperature in `city`, in degrees Celsius.
  func temperature(in city: String) async throws -> Double
}

/// The error of the quick start's live client, which asks no real service.
struct WeatherServiceUnavailable: Error {}

/// The weather service's client.
public struct LiveWeatherClient: WeatherClient {
  /// Asks the weather service.
  public func temperature(in city: String) async throws -> Double {
    // … asks the weather service
    throw WeatherServiceUnavailable()
  }
}

/// The same temperature everywhere, for tests.
public struct FixedWeatherClient: WeatherClient {
  /// The temperature it tells.
  public let degrees: Double
  /// ``degrees``, wherever `city` is.
  public func temperature(in city: String) async throws -> Double { degrees }
}

/// The weather client, published beside its implementations.
public let weatherClientInjection = Injection<any WeatherClient>(
  strategy: .singleton,
  instance: LiveWeatherClient(),
  test: FixedWeatherClient(degrees: 21)
)

@MainActor
final class WeatherModel {
  @Instance(weatherClientInjection) private var client
  private(set) var text = "Loading…"

  func load(city: String) async {
    do {
      text = "\(city): \(try await client.temperature(in: city))°C"
    } catch {
      text = "No weather for \(city)."
    }
  }
}

@Suite(.isolatedInjections)
@MainActor struct WeatherModelTests {
  @Test func showsTheTestValue() async {
    let model = WeatherModel()
    await model.load(city: "Oslo")
    #expect(model.text == "Oslo: 21.0°C")
  }

  @Test(.overriding(weatherClientInjection, with: FixedWeatherClient(degrees: -3)))
  func showsTheOverride() async {
    let model = WeatherModel()
    await model.load(city: "Oslo")
    #expect(model.text == "Oslo: -3.0°C")
  }
}

// MARK: - An actor

/// Tells exchange rates.
public protocol RatesClient: Sendable {
  /// How many units of `to` one unit of `from` buys.
  func rate(from: String, to: String) async throws -> Double
}

/// The error of the quick start's live rates client, which asks no real service.
struct RatesServiceUnavailable: Error {}

/// The exchange's client.
public struct LiveRatesClient: RatesClient {
  /// Asks the exchange.
  public func rate(from: String, to: String) async throws -> Double {
    // … asks the exchange
    throw RatesServiceUnavailable()
  }
}

/// The same rate for every pair, for tests; records the pairs it was asked for.
public actor FixedRatesClient: RatesClient {
  /// The rate it tells.
  public let value: Double
  /// The pairs asked for, `from/to`, in order.
  public private(set) var requests: [String] = []
  /// A client that tells `value` for every pair.
  public init(_ value: Double) { self.value = value }

  /// ``value``, recording the pair.
  public func rate(from: String, to: String) async throws -> Double {
    requests.append("\(from)/\(to)")
    return value
  }
}

/// The rates client, published beside its implementations.
public let ratesClientInjection = SendableInjection<any RatesClient>(
  strategy: .singleton,
  instance: LiveRatesClient(),
  test: FixedRatesClient(2)
)

actor CurrencyConverter {
  @SendableInstance(ratesClientInjection) private var rates
  private var known: [String: Double] = [:]

  func convert(_ amount: Double, from: String, to: String) async throws -> Double {
    if let rate = known[from + to] { return amount * rate }
    let rate = try await rates.rate(from: from, to: to)
    known[from + to] = rate
    return amount * rate
  }
}

@Suite(.isolatedInjections)
struct CurrencyConverterTests {
  @Test func convertsWithTheTestValue() async throws {
    #expect(try await CurrencyConverter().convert(10, from: "EUR", to: "USD") == 20)
  }

  @Test func asksForEachRateOnce() async throws {
    let rates = FixedRatesClient(1.5)
    try await ratesClientInjection.withOverride(rates) {
      let converter = CurrencyConverter()
      _ = try await converter.convert(10, from: "EUR", to: "USD")
      #expect(try await converter.convert(20, from: "EUR", to: "USD") == 30)
    }
    #expect(await rates.requests == ["EUR/USD"])
  }
}
