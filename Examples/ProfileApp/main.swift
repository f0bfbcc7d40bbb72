import Inject
import ProfileFeature
import ProfileKit

// No code for the mock: `apiClientInjection` declares it beside the live client, for a launch
// with `-mock-api` (`swift run ProfileApp -mock-api`, or a UI test's launch arguments) or with
// `MOCK_API=1` in the environment; an Xcode preview gets the preview client.

if CommandLine.arguments.contains("--sign-out") {
  // A sign-in, a sign-out and a second sign-in: the first user's account store goes with the
  // session, and with the screen that showed it.
  var screen: AccountView? = AccountView(model: AccountModel())
  screen?.model.signIn(.sample)
  print(screen?.body ?? "")
  screen = nil
  userSession.end()
  let survivors = userSession.survivors()
  print(survivors.isEmpty ? "Signed out: no instance of the first session survived." : "Signed out, but:")
  for survivor in survivors {
    print(survivor.message)
  }
  let next = AccountView(model: AccountModel())
  print(next.body)
  next.model.signIn(.demo)
  print(next.body)
} else if CommandLine.arguments.contains("--posts") {
  // One post store per user, from a family: the screens of one user share it while one is open.
  let first = PostsModel(userID: 1)
  let second = PostsModel(userID: 1)
  first.post("A second post.")
  print("User 1, second screen: \(second.posts)")
  print("User 7: \(PostsModel(userID: 7).posts)")
} else if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), CommandLine.arguments.contains("--graph") {
  // The app's dependency graph, as the Diagnostics article shows it (scripts/check-graph-pictures):
  // a screen loaded, with its model as the root that no injection built.
  let profile = ProfileView(model: ProfileModel(userID: 1))
  await profile.model.load()
  print(InjectionGraph.capture(roots: [profile.model]).mermaid)
} else if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
  // A SwiftUI app would put these screens in a window; this one prints their bodies.
  let profile = ProfileView(model: ProfileModel(userID: 1))
  print(profile.body)
  await profile.model.load()
  print(profile.body)
  // The avatar loader, an actor, loaded it off the main actor through the avatar client.
  print(profile.avatar)

  // A second screen of the same user shares the repository, and so its cache: it needs no
  // request.
  let again = ProfileView(model: ProfileModel(userID: 1))
  await again.model.load()
  print(again.body)

  let missing = ProfileView(model: ProfileModel(userID: 7))
  await missing.model.load()
  print(missing.body)
} else {
  print("ProfileApp needs macOS 14, iOS 17, tvOS 17 or watchOS 10, for Observation.")
}
