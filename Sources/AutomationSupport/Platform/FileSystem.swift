#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations stub loading and file serving need. Files are written by ``RootedDirectory`` (below a
/// root, following no link) and ``OutputFile`` (paths the user names), never here.
package enum FileSystem {
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The size of the regular file at `path` (links followed), or nil when there is none.
    package static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    /// True when `path` itself is a symbolic link (not followed).
    package static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// True when something (file, directory, link to one) exists at `path`.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// What `path` is when it is neither a regular file nor a directory ("a FIFO, not a file", a device such as
    /// /dev/null, a socket), following links; nil otherwise (also when nothing is there). An input named by an
    /// option is refused with this before it is read, the same way (exit 2) whatever the option.
    package static func specialKind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
        return kind(info.st_mode)
    }

    /// The largest file ``read(_:)`` reads (stub, feature, step, flags and body files, files a route serves): a
    /// larger one is refused (``unreadable(_:)`` says so) instead of taking the machine's memory.
    package static let readLimit = 256 << 20

    /// The whole file, or nil when it cannot be read, is not a regular file or is larger than ``readLimit``.
    ///
    /// Opened with O_NONBLOCK: a FIFO (or a terminal, a device) named where a file is expected would otherwise
    /// block open() until a writer comes, forever and deaf to SIGTERM; fstat then refuses all but regular files
    /// (``unreadable(_:)`` names what it is).
    package static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(descriptor: fd)
    }

    /// The rest of the open file `fd` (not closed), or nil when it cannot be read or is larger than ``readLimit``.
    package static func read(descriptor fd: Int32) -> [UInt8]? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= readLimit else { return nil }
        // Straight into the result, sized by fstat plus one byte to see the end (no zeroed chunk copied from:
        // a large stub file is read on the path to "ready").
        let expected = Int(info.st_size) + 1
        var failed = false
        var result = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            while count < expected {
                let read = systemRead(fd, buffer.baseAddress! + count, expected - count)
                if read < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return
                }
                if read == 0 { return }
                count += read
            }
        }
        if failed { return nil }
        if result.count < expected { return result }
        // It grew while we read it, or its size said nothing (files under /proc): on in chunks.
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return result }
            if result.count + count > readLimit { return nil }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Why ``read(_:)`` returns nil for `path`, for a message: "no such file", "a directory", "larger than 256 MiB:
    /// … bytes", or the system's reason.
    package static func unreadable(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else { return String(cString: strerror(errno)).lowercased() }
            // A name a directory walk found that is not UTF-8 reads with U+FFFD in it, and no file has that name.
            let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
            return listing(directory(of: path)).notUTF8[name] != nil ? "the name is not UTF-8; rename the file" : "no such file"
        }
        if let kind = kind(info.st_mode) { return kind }
        if Int(info.st_size) > readLimit { return "larger than \(readLimit >> 20) MiB: \(info.st_size) bytes" }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return errno == EACCES ? "permission denied" : String(cString: strerror(errno)).lowercased() }
        close(fd)
        return "cannot be read"
    }

    /// What a file that is not a regular file is, for a message ("a FIFO, not a file"); nil for a regular file.
    /// The names are ``RootedDirectory/notAFile(_:)``'s.
    private static func kind(_ mode: mode_t) -> String? {
        guard let kind = RootedDirectory.notAFile(mode) else { return nil }
        switch mode & S_IFMT {
        case S_IFIFO, S_IFCHR, S_IFBLK, S_IFSOCK: return kind + ", not a file"
        default: return kind
        }
    }

    /// Names in a directory (no `.`/`..`), sorted.
    package static func list(_ path: String) -> [String] { listing(path).names }

    /// The names in `path`, sorted, and the raw bytes of those that are not UTF-8 by the name they read as (each byte
    /// UTF-8 cannot read shown as U+FFFD): such a name cannot be opened by its String, so a caller says why.
    /// Empty when the directory cannot be listed: a walk that must not skip a directory silently uses
    /// ``entries(_:)``, which says why.
    package static func listing(_ path: String) -> (names: [String], notUTF8: [String: [UInt8]]) {
        (try? entries(path).get()) ?? ([], [:])
    }

    /// The same as ``listing(_:)``, or why the directory could not be listed ("permission denied", the system's
    /// reason): a directory opened but not read to its end fails too, never a shorter list.
    package static func entries(_ path: String) -> Result<(names: [String], notUTF8: [String: [UInt8]]), ListingError> {
        guard let directory = opendir(path) else { return .failure(ListingError(errno: errno)) }
        defer { closedir(directory) }
        var names: [String] = []
        var notUTF8: [String: [UInt8]] = [:]
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(ListingError(errno: errno)) }
                break
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            let name = String(decoding: bytes, as: UTF8.self)
            guard name != "." && name != ".." else { continue }
            names.append(name)
            if Array(name.utf8) != bytes { notUTF8[name] = bytes }
        }
        return .success((names.sorted(), notUTF8))
    }

    /// Why a directory could not be listed, or an entry could not be looked at: the system's reason, lower case.
    package struct ListingError: Error, Sendable, CustomStringConvertible {
        package let description: String
        init(errno code: Int32) { description = String(cString: strerror(code)).lowercased() }
    }

    /// Why the entry at `path` cannot be looked at (stat fails for another reason than "nothing there", such as a
    /// directory that may be listed but not searched); nil when it can, or when it is gone or a dangling link.
    package static func statFailure(_ path: String) -> ListingError? {
        var info = stat()
        guard stat(path, &info) != 0, errno != ENOENT else { return nil }
        return ListingError(errno: errno)
    }

    /// `name` resolved inside `root`, or why it may not be: a body file is relative, has no `..`, and its
    /// real path (symlinks resolved) lies under the root's real path.
    package static func confined(_ name: String, in root: String) -> Result<String, ConfinementError> {
        if name.isEmpty { return .failure(ConfinementError("the file name is empty")) }
        if name.hasPrefix("/") { return .failure(ConfinementError("\(name) is an absolute path; name a file inside \(root)")) }
        if name.split(separator: "/").contains("..") {
            return .failure(ConfinementError("\(name) climbs out with ..; name a file inside \(root)"))
        }
        if name.utf8.contains(0) { return .failure(ConfinementError("the file name contains a NUL byte")) }
        let relative = name.hasPrefix("./") ? String(name.dropFirst(2)) : name
        let candidate = (root.hasSuffix("/") ? root : root + "/") + relative
        guard let real = realPath(candidate) else { return .failure(ConfinementError("cannot read \(candidate) (looked in \(root))")) }
        guard let realRoot = realPath(root), real == realRoot || isBelow(real, realRoot) else {
            return .failure(ConfinementError("\(name) resolves to \(real), outside \(root) (a symlink out?)"))
        }
        return .success(real)
    }

    /// Why a file name is refused by ``confined(_:in:)``.
    package struct ConfinementError: Error, Sendable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// The canonical absolute path (symlinks resolved), or nil when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The directory part of a path ("." when there is none).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}
