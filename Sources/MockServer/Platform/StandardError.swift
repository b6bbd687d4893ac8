#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Warnings from the server's own code (not a request's answer), straight to fd 2.
package enum StandardError {
    package static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc_or_Darwin_write(2, &bytes, bytes.count)
    }
}

private func Glibc_or_Darwin_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
