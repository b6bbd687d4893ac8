#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bridge's one line on stderr about a malformed marshalled value.
enum HostStandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        #if canImport(Glibc)
        _ = Glibc.write(2, &bytes, bytes.count)
        #else
        _ = Darwin.write(2, &bytes, bytes.count)
        #endif
    }
}
