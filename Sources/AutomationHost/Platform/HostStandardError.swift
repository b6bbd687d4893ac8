#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bridge's one line on stderr about a malformed marshalled value or a mistyped flag.
enum HostStandardError {
    nonisolated(unsafe) private static var written = Set<String>()
    nonisolated(unsafe) private static var lock = pthread_mutex_t()
    private static let lockReady: Void = { pthread_mutex_init(&lock, nil) }()

    /// Writes `text` the first time it is asked for with `key` in this process.
    static func writeOnce(key: String, _ text: String) {
        _ = lockReady
        pthread_mutex_lock(&lock)
        let first = written.insert(key).inserted
        pthread_mutex_unlock(&lock)
        if first { write(text) }
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        #if canImport(Glibc)
        _ = Glibc.write(2, &bytes, bytes.count)
        #else
        _ = Darwin.write(2, &bytes, bytes.count)
        #endif
    }
}
