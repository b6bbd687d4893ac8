#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C calls coverage makes itself: a raw profile's size and first bytes (read without following a link), and
/// the lock that keeps two runs out of one DIR.
enum ProfileFiles {
    /// A regular file's size and its first 8 bytes (fewer when shorter); nil when it is not a regular file or
    /// cannot be opened. Only the header is read, however large the file.
    static func header(_ path: String) -> (size: Int64, magic: [UInt8])? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: 8)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, 8) }
        return (Int64(info.st_size), Array(bytes.prefix(max(count, 0))))
    }

    /// Takes `DIR/.lock` (made when missing, never through a link): its descriptor, held until ``unlock(_:)``;
    /// -1 when another run holds it, nil when it cannot be opened. Close-on-exec: launches do not inherit it.
    static func lock(_ path: String) -> Int32? {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return -1
        }
        return fd
    }

    static func unlock(_ fd: Int32) { close(fd) }
}
