import ProfileKit

/// The profile screen, shaped like a SwiftUI view: a struct whose `body` is read on the main
/// actor.
///
/// SwiftUI is not available on Linux, so `body` is text here. In an app, the struct conforms to
/// `View`, holds the model in `@State`, and loads it in `.task { await model.load() }`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public struct ProfileView {
  /// The screen's model.
  public let model: ProfileModel

  /// A screen that shows what `model` has.
  ///
  /// - Parameter model: The screen's model.
  public init(model: ProfileModel) {
    self.model = model
  }

  /// What the screen shows.
  public var body: String {
    switch model.state {
    case .loading: "Loading the profile of user \(model.userID)…"
    case .loaded(let user): "\(user.name): \(user.bio)"
    case .failed(let message): "Could not load the profile: \(message)."
    }
  }

  /// The user's avatar, as the screen shows it beside the profile.
  public var avatar: String {
    model.avatar.map { "Avatar: \($0)" } ?? "No avatar yet."
  }
}
