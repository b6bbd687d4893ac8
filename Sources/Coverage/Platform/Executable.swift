#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a path names a file this process may execute (`access(X_OK)`).
enum Executable {
    static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }
}
