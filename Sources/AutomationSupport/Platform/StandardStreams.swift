#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text to this process's stdout or stderr, unbuffered (fd 1 and 2), for sut-launch's own lines and the
/// server's warnings. A closed reader is not an error here (SIGPIPE is ignored by the CLI).
package enum StandardStreams {
    package static func out(_ text: String) { write(text, to: 1) }
    package static func error(_ text: String) { write(text, to: 2) }

    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        #if canImport(Glibc)
        _ = Glibc.write(fd, &bytes, bytes.count)
        #else
        _ = Darwin.write(fd, &bytes, bytes.count)
        #endif
    }
}
