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

/// A flag that is set once, from any thread.
package final class LockedFlag: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var value = false
    package init() { pthread_mutex_init(&mutex, nil) }
    /// Sets the flag; true when this call set it (it was clear).
    package func set() -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        defer { value = true }
        return !value
    }
}

private func Glibc_or_Darwin_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
