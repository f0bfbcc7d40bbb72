import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops an exit test's child process that runs too long or grows too large, with a message and
/// an exit code of its own.
///
/// NB: `.timeLimit` does not bound an exit test. When the limit passes, Swift Testing records
/// the failure and cancels the test's task, but the task goes on waiting for the child, which
/// cancelling neither ends nor kills: a child that loops for ever (two did, with the main-actor
/// cycle check disabled) hangs `swift test`. So the child bounds itself: every exit test's body
/// calls ``start(seconds:megabytes:)`` first. A child that expects `.failure` and is stopped here
/// fails its test too, since each checks what its child wrote.
package enum ChildProcessBound {
  /// The exit code of a child that its bound stopped.
  private static let exitCode: Int32 = 86

  /// Stops this process once it has run for `seconds` or its resident memory has grown to
  /// `megabytes` (where it can be read), whichever comes first: from a thread of its own, it
  /// writes why to standard error and exits at once with ``exitCode``.
  ///
  /// The defaults are far over what a child needs (in a debug build beside the other exit tests
  /// on two cores, the longest took 3 seconds and the largest 64 MB; a sanitizer multiplies
  /// both), and far under what stops a machine: half the exit tests' four-minute time limit, and
  /// 3 GB.
  package static func start(seconds: Double = 120, megabytes: Int = 3_072) {
    let start = ContinuousClock.now
    let limit = Duration.seconds(seconds)
    let thread = Thread {
      while true {
        usleep(50_000)
        let elapsed = ContinuousClock.now - start
        let resident = residentMegabytes() ?? 0
        guard elapsed >= limit || resident >= megabytes else { continue }
        let text =
          "Exit test child stopped by its bound after \(elapsed), resident memory \(resident) MB "
          + "(bounds: \(seconds) s, \(megabytes) MB)\n"
        FileHandle.standardError.write(Data(text.utf8))
        _exit(exitCode)
      }
    }
    thread.start()
  }
}
