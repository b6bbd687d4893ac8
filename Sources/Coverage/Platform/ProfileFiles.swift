#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C calls coverage makes itself: a raw profile's size and first bytes (read without following a link).
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
}
