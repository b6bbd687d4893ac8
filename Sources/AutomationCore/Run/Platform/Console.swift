#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// sut-launch's own lines on stderr, each prefixed `sut-launch: `; and its stdout.
public enum Console {
    /// Writes `text` to stdout as it is.
    public static func out(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(1, &bytes, bytes.count)
    }

    /// Writes `sut-launch: error: message` to stderr.
    public static func error(_ message: String) { line("error: " + message) }

    /// Writes `sut-launch: message` to stderr.
    public static func line(_ message: String) {
        var bytes = Array(("sut-launch: " + message + "\n").utf8)
        _ = write(2, &bytes, bytes.count)
    }
}
