/// Where something was written: a `#fileID` and a `#line`, stored without a heap allocation.
@usableFromInline
struct SourceLocation: Sendable, CustomStringConvertible {
  let fileID: StaticString
  let line: UInt

  @usableFromInline
  init(fileID: StaticString, line: UInt) {
    self.fileID = fileID
    self.line = line
  }

  @usableFromInline
  var description: String { "\(fileID):\(line)" }
}
