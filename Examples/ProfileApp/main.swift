import Inject
import ProfileFeature
import ProfileKit

// A demo or UI-test launch replaces the live client at its start, before any screen reads it:
// `swift run ProfileApp --mock`.
if CommandLine.arguments.contains("--mock") {
  apiClientInjection.override(with: MockAPIClient(users: [User(id: 1, name: "Mock User", bio: "Served by the mock.")]))
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
  // A SwiftUI app would put these screens in a window; this one prints their bodies.
  let profile = ProfileView(model: ProfileModel(userID: 1))
  print(profile.body)
  await profile.model.load()
  print(profile.body)

  // A second screen of the same user, while the first is open, shares the repository and so
  // its cache: it needs no request.
  let again = ProfileView(model: ProfileModel(userID: 1))
  await again.model.load()
  print(again.body)

  let missing = ProfileView(model: ProfileModel(userID: 7))
  await missing.model.load()
  print(missing.body)
} else {
  print("ProfileApp needs macOS 14, iOS 17, tvOS 17 or watchOS 10, for Observation.")
}
