/// A lifetime bound to something the app begins and ends, such as a signed-in user: what
/// injections with the ``Strategy/session(_:)`` strategy build lives until the session ends.
///
/// Declare a session once, beside the code that owns sign-in, and publish what belongs to the
/// user with its strategy:
///
/// ```swift
/// // ProfileKit/AccountStore.swift
/// public let userSession = InjectionSession("signed-in user")
/// // …
/// public let accountStoreInjection = Injection<AccountStore>(strategy: .session(userSession), instance: AccountStore())
///
/// // ProfileApp/main.swift
/// userSession.end()
/// ```
///
/// Within one *generation* of the session, a `.session` injection behaves as ``Strategy/singleton``:
/// one instance, kept strongly, for every consumer. A generation begins at the first resolution of
/// one of the session's injections, and ``end(fileID:line:)`` ends it in the calling task's world:
/// the world releases the session's instances, and every instance whose build resolved one of them
/// (a `.singleton` repository built with the account store) is no longer handed to new consumers.
/// Consumers that resolved before keep what they hold: ``survivors(roots:)`` names the instances of
/// an ended generation that are still alive, and who holds them. See <doc:Sessions>.
public final class InjectionSession: Sendable, Hashable, CustomStringConvertible {
  /// The name given to the session, which messages and graphs show.
  public let name: String

  /// Where the session was declared.
  public let declaredAt: CodeLocation

  /// Declares a session.
  ///
  /// `nonisolated`, so that a global `let` needs no `@MainActor`; declaring it begins nothing.
  ///
  /// - Parameters:
  ///   - name: What the session stands for, such as `"signed-in user"`; messages show it.
  ///   - fileID: Where the session is declared; recorded for diagnostics.
  ///   - line: Where the session is declared; recorded for diagnostics.
  public nonisolated init(_ name: String, fileID: StaticString = #fileID, line: UInt = #line) {
    self.name = name
    self.declaredAt = CodeLocation(fileID: fileID, line: line)
  }

  /// Ends the session's current generation in the calling task's world (the global world, a
  /// scope's, or a test's), before it returns.
  ///
  /// The world releases every instance it stores for the session, and every instance it or any
  /// world stores whose build resolved one of them; the next resolution there begins a new
  /// generation. Other worlds, enclosing and nested scopes included, keep their own generations.
  /// Consumers that resolved before keep what they hold.
  ///
  /// Ending a session that has no generation in this world (it was never resolved here, or no
  /// resolution began a new generation since it last ended) changes nothing and shows a debug
  /// warning.
  ///
  /// Once the main actor's current work is done, a check reports each instance of the ended
  /// generation that is still alive, with what holds it (see ``survivors(roots:)``): as an
  /// ``InjectionEvent/Kind/survivedSession(endedAt:heldBy:)`` event to the installed telemetry,
  /// or, with none, as a warning in debug builds. It does not run in a test world, where
  /// `expectSessionEnds(_:roots:sourceLocation:)` of InjectTesting checks, and it records no test
  /// issue.
  ///
  /// - Parameters:
  ///   - fileID: Where the session is ended; survivor reports name it.
  ///   - line: Where the session is ended; survivor reports name it.
  @MainActor
  public func end(fileID: StaticString = #fileID, line: UInt = #line) {
    let location = CodeLocation(fileID: fileID, line: line)
    let world = World.current
    guard let generation = World.withSessions(of: world, { $0.take(self) }) else {
      Telemetry.record(.nothingToEnd, of: self, at: location)
      return
    }
    let released = generation.end(at: location)
    World.withSessions(of: world) { sessions in
      sessions.pruneEnded()
      sessions.noteEnded(generation)
    }
    Telemetry.record(.sessionEnded(released: released.count), of: self, at: location)
    // Released after the state is updated: a `deinit` that resolves one of the session's
    // injections begins the next generation.
    withExtendedLifetime(released) {}
    checkSurvivors(of: generation, in: world)
  }

  /// Compares sessions by identity.
  public static func == (lhs: InjectionSession, rhs: InjectionSession) -> Bool { lhs === rhs }

  /// Hashes the session's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }

  /// The session's name.
  public var description: String { name }

  /// The session's label in messages: `InjectionSession("signed-in user")`.
  var label: String { "InjectionSession(\"\(name)\")" }
}
