#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Host library's lines on stderr: a malformed marshalled value, a mistyped flag, an unusable control channel.
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

    /// Writes `text` as one line: control characters from outside (a marshalled value, an endpoint) escaped, so an
    /// ESC or a CR in them cannot set the terminal's title or forge a line; the final line break is the line's end.
    static func write(_ text: String) {
        let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
        var bytes = Array((HostEscaping.escaped(line) + "\n").utf8)
        #if canImport(Glibc)
        _ = Glibc.write(2, &bytes, bytes.count)
        #else
        _ = Darwin.write(2, &bytes, bytes.count)
        #endif
    }
}
