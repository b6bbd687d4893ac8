#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// What ``read(_:lineLimit:)`` found.
    package enum LineLimitedRead: Equatable {
        /// The whole file.
        case bytes([UInt8])
        /// It cannot be read (``unreadable(_:)`` says why): missing, not a regular file, over ``readLimit``.
        case unreadable
        /// Line `line` (1-based, lines end at LF) grew past the limit: reading stopped there.
        case lineTooLong(line: Int)
    }

    /// Bytes read per call of ``read(_:lineLimit:)``.
    package static let lineReadBlock = 65_536

    /// The whole file, like ``read(_:)``, read block by block: a line longer than `lineLimit` bytes ends the read as
    /// soon as it passes the limit, so a file of one huge line costs at most the limit and a block of memory, never
    /// its whole size (`sut-launch report` on a 200 MiB line).
    package static func read(_ path: String, lineLimit: Int) -> LineLimitedRead {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .unreadable }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= readLimit else { return .unreadable }
        var lines = 1
        var lineLength = 0
        // Each line end in what was just read (memchr): the line it ends must fit; the tail starts the next one.
        func tooLong(_ raw: UnsafeRawBufferPointer) -> Bool {
            var offset = 0
            while offset < raw.count, let found = memchr(raw.baseAddress! + offset, 0x0A, raw.count - offset) {
                let end = raw.baseAddress!.distance(to: UnsafeRawPointer(found))
                if lineLength + end - offset > lineLimit { return true }
                lines += 1
                lineLength = 0
                offset = end + 1
            }
            lineLength += raw.count - offset
            return lineLength > lineLimit
        }
        // Read straight into an array of the file's size (one more byte: a file that grew is seen growing), block by
        // block: no copy, no doubling (a 60 MiB Messages file read into a growing array touched twice its pages).
        // A huge line still ends the read at the limit: the pages past it are never touched.
        var failure: LineLimitedRead?
        var result = [UInt8](unsafeUninitializedCapacity: Int(info.st_size) + 1) { buffer, initialized in
            while initialized < buffer.count {
                let count = systemRead(fd, buffer.baseAddress! + initialized, min(lineReadBlock, buffer.count - initialized))
                if count < 0, errno == EINTR { continue }
                if count < 0 { failure = .unreadable }
                if count <= 0 { return }
                if tooLong(UnsafeRawBufferPointer(start: buffer.baseAddress! + initialized, count: count)) {
                    failure = .lineTooLong(line: lines)
                    return
                }
                initialized += count
            }
        }
        if let failure { return failure }
        if result.count <= Int(info.st_size) { return .bytes(result) }
        // The file grew while it was read: the rest block by block.
        var block = [UInt8](repeating: 0, count: lineReadBlock)
        while true {
            let count = block.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .unreadable
            }
            if count == 0 { return .bytes(result) }
            if result.count + count > readLimit { return .unreadable }
            if block.withUnsafeBytes({ tooLong(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }) { return .lineTooLong(line: lines) }
            result.append(contentsOf: block[0..<count])
        }
    }
}
