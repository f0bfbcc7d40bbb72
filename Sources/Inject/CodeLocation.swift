/// Where something was written: a file ID and a line, stored without a heap allocation.
///
/// Injections record where they were published, overrides where they were pushed, and
/// `@Instance` properties where they were declared; diagnostics and ``InjectionEvent``s name
/// these locations.
///
/// ```swift
/// print(event.publishedAt)  // "ServicePackage/Services.swift:12"
/// ```
public struct CodeLocation: Sendable, Equatable, CustomStringConvertible {
  /// The file, as `#fileID` writes it: `Module/File.swift`.
  public let fileID: StaticString
  /// The line in the file.
  public let line: UInt

  /// A location in `fileID` at `line`.
  ///
  /// - Parameters:
  ///   - fileID: The file, as `#fileID` writes it.
  ///   - line: The line in the file.
  @inlinable
  public init(fileID: StaticString, line: UInt) {
    self.fileID = fileID
    self.line = line
  }

  /// `Module/File.swift:line`.
  public var description: String { "\(fileID):\(line)" }

  /// Whether both name the same file and line.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.line == rhs.line && lhs.fileID.description == rhs.fileID.description
  }
}
