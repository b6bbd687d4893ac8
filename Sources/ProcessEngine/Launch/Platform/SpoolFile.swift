#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only file holding a stream's bytes past what memory keeps: created in a directory the caller
/// owns (exclusively, not through a symlink), unlinked at once, closed when the last reference goes.
final class SpoolFile: @unchecked Sendable {
    private let descriptor: Int32
    /// Bytes written so far.
    private(set) var count = 0

    /// A new spool in `directory`, or nil when it cannot be made there.
    init?(in directory: String) {
        var made: Int32 = -1
        for attempt in 0..<16 where made < 0 {
            let path = directory + "/.spool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(attempt)"
            made = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if made >= 0 { unlink(path) }
        }
        guard made >= 0 else { return nil }
        descriptor = made
    }

    deinit { close(descriptor) }

    /// Appends `bytes`; false when the file could not take them all (disk full): the caller stops spooling.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset, off_t(count + offset))
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        count += bytes.count
        return true
    }

    /// Up to `length` bytes from `offset` (fewer at the end); nil on a read error.
    func read(at offset: Int, length: Int) -> [UInt8]? {
        let wanted = max(0, min(length, count - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, wanted - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }
}
