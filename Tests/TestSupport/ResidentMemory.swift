#if canImport(Glibc)
import Glibc
#endif

/// The process's resident memory in megabytes, where the platform tells it (Linux); elsewhere
/// `nil`.
package func residentMegabytes() -> Int? {
  #if canImport(Glibc)
  guard let file = fopen("/proc/self/statm", "r") else { return nil }
  defer { fclose(file) }
  var line = [CChar](repeating: 0, count: 128)
  guard fgets(&line, Int32(line.count), file) != nil else { return nil }
  let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    .split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
  #else
  return nil
  #endif
}
