#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the user names on the command line for the product to write (`--junit`, `--report`, `--messages`,
/// `--html`, `--write-rerun`, `--journal`, `report`'s outputs). The directories on its path are the user's and are
/// followed, as git and cargo follow them, but once: ``pin(_:)`` opens the file's directory when the command line
/// is checked, before anything launches, and the file is written into that directory at the end, so a link a
/// program under test plants in one of those directories meanwhile (`out/` swapped for a link elsewhere) is not
/// followed. The file itself is written to a temporary name beside it and renamed into place, so a report that
/// cannot be written whole leaves nothing (and an older report stays as it was), and a file hard-linked elsewhere
/// is replaced at this name, never truncated through the other. A symbolic link at the name (dangling or not) is
/// refused unless it leads to a device or FIFO (`/dev/stdout`), and a device or FIFO named directly (`/dev/null`)
/// is written in place.
package enum OutputFile {
    /// The directories opened by ``pin(_:)``, by the path of the file to write in each.
    private static let pinned = Locked<[String: Pinned]>([:])

    /// A directory opened at start, and what stood at the file's name then when it was not a file: a link the user
    /// made (to `/dev/stdout`) and its target, or a device or FIFO. Only that is written in place at the end: a link or
    /// device planted during the run (to `/dev/loop0`) is refused.
    private struct Pinned {
        let directory: RootedDirectory
        let kindAtStart: RootedDirectory.Kind?
        let linkAtStart: [UInt8]?
    }

    /// The target of the link `name` in `directory`, or nil.
    private static func linkTarget(_ name: String, in directory: RootedDirectory) -> [UInt8]? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlinkat(directory.descriptor, name, &buffer, buffer.count)
        return count >= 0 ? buffer[..<count].map { UInt8(bitPattern: $0) } : nil
    }

    /// Opens the directory of `path` now (following the links the user typed), so ``write(_:to:mode:)`` writes into
    /// this directory whatever its path leads to by then. Nothing happens when it cannot be opened (``problem(_:)``
    /// says why).
    package static func pin(_ path: String) {
        guard problem(path) == nil, let directory = try? RootedDirectory(FileSystem.directory(of: path)) else { return }
        let kind = directory.kind(ofEntry: name(path))
        let entry = Pinned(
            directory: directory, kindAtStart: kind, linkAtStart: kind == .link ? linkTarget(name(path), in: directory) : nil)
        pinned.withLock { $0[path] = entry }
    }

    /// The last component of `path`: the name written in its directory.
    private static func name(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }

    /// Why `path` cannot be written, or nil when it can: its directory must exist and be writable, and the
    /// path must not name a directory, a read-only file or a link to a file.
    package static func problem(_ path: String) -> String? {
        if path.isEmpty { return "the path is empty" }
        if path.utf8.contains(0) { return "the path contains a NUL byte" }
        if name(path).utf8.count > RootedDirectory.nameLimit {
            return "its name is \(name(path).utf8.count) bytes long; a file name may have at most \(RootedDirectory.nameLimit)"
        }
        let directory = FileSystem.directory(of: path)
        if !FileSystem.isDirectory(directory) { return "directory \(directory) does not exist" }
        var info = stat()
        if lstat(path, &info) == 0 {
            switch RootedDirectory.Kind(info.st_mode) {
            case .directory: return "\(path) is a directory"
            case .link:
                if !isDevice(path) {
                    return "\(path) is a symbolic link; reports are not written through links (name the file it points to)"
                }
                if let problem = fifoProblem(path) ?? deviceProblem(path) { return problem }
                return access(path, W_OK) == 0 ? nil : "\(path) is not writable"
            case .other:
                if let problem = fifoProblem(path) ?? deviceProblem(path) { return problem }
                return access(path, W_OK) == 0 ? nil : "\(path) is not writable"
            case .file: if access(path, W_OK) != 0 { return "\(path) is not writable" }
            }
        }
        guard access(directory, W_OK) == 0 else { return "directory \(directory) is not writable" }
        return probe(directory)
    }

    /// Whether a file can be created in `directory`, by creating one (then removing it): `access` says yes for `/proc`
    /// and `/sys` as root, where creating fails, which was found only after the whole run (exit 74, not 2).
    private static func probe(_ directory: String) -> String? {
        let name =
            (directory.hasSuffix("/") ? directory : directory + "/") + ".sut-probe-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        let fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "cannot create a file in directory \(directory): \(RootedDirectory.reason(errno))" }
        close(fd)
        unlink(name)
        return nil
    }

    /// ``pin(_:)`` for each of `paths`.
    package static func pin(_ paths: [String]) {
        for path in paths { pin(path) }
    }

    /// Writes `bytes` to `path` whole or not at all (see the type's summary); the reason when it cannot.
    /// The directory pinned for it at start (``pin(_:)``) is written through, whatever its path names now.
    package static func write(_ bytes: [UInt8], to path: String, mode: Int = 0o644) -> String? {
        defer { releaseFIFO(path) } // after the report's own descriptor: the reader sees the end once both are closed
        if let entry = pinned.withLock({ $0[path] }) {
            let directory = entry.directory
            // Looked at in the directory opened at the start: a link planted on the path since then is not followed.
            var info = stat()
            guard fstat(directory.descriptor, &info) == 0, info.st_nlink > 0 else {
                return "directory \(directory.path) was removed during the run; \(path) is not written anywhere else"
            }
            let kind = directory.kind(ofEntry: name(path))
            switch kind {
            case nil, .file?:
                if kind == .file, faccessat(directory.descriptor, name(path), W_OK, 0) != 0 { return "\(path) is not writable" }
                do { try directory.write(bytes, to: name(path), mode: mode) } catch { return error.description }
                return nil
            case .directory?: return "\(path) is a directory"
            case .link?, .other?:
                let unchanged =
                    kind == entry.kindAtStart && (kind != .link || linkTarget(name(path), in: directory) == entry.linkAtStart)
                guard unchanged else {
                    return "\(path) became a \(kind == .link ? "symbolic link" : "device or FIFO") during the run; reports are not "
                        + "written through what a program put at their name"
                }
                return writeInPlace(bytes, at: name(path), in: directory, shown: path)
            }
        }
        if let problem = problem(path) { return problem }
        var info = stat()
        if lstat(path, &info) == 0, RootedDirectory.Kind(info.st_mode) != .file {
            // A device or FIFO (checked by problem): written in place, never created or replaced.
            let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return "cannot open \(path): \(RootedDirectory.reason(errno))" }
            return writeAndClose(bytes, fd, shown: path)
        }
        do {
            let directory = try RootedDirectory(FileSystem.directory(of: path))
            try directory.write(bytes, to: name(path), mode: mode)
            return nil
        } catch {
            return error.description
        }
    }

    /// Writes `bytes` (a placeholder that says the run has not finished) to `path` like ``write(_:to:mode:)``, but only
    /// where a report is later renamed into place: a regular file or no entry. A device, FIFO or link to one
    /// (`--junit /dev/stdout`) is left alone: nothing there can be left stale, and the placeholder would be read as output.
    package static func writePlaceholder(_ bytes: [UInt8], to path: String) -> String? {
        let kind =
            pinned.withLock({ $0[path] }).map { $0.directory.kind(ofEntry: name(path)) }
            ?? {
                var info = stat()
                return lstat(path, &info) == 0 ? RootedDirectory.Kind(info.st_mode) : nil
            }()
        guard kind == nil || kind == .file else { return nil }
        return write(bytes, to: path)
    }

    /// After a write through the directory ``pin(_:)`` opened: when `path`'s directory no longer leads to it (renamed
    /// or replaced during the run), one line saying so and where the file is now (read back from the open
    /// directory); nil when it still does, or `path` was not pinned. The file was written; this is a warning.
    package static func displaced(_ path: String) -> String? {
        guard let entry = pinned.withLock({ $0[path] }) else { return nil }
        var opened = stat()
        var named = stat()
        guard fstat(entry.directory.descriptor, &opened) == 0 else { return nil }
        let directory = FileSystem.directory(of: path)
        if stat(directory, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino { return nil }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/\(entry.directory.descriptor)", &buffer, buffer.count)
        let now = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        return "\(directory) no longer leads to the directory it named when the run started (renamed or replaced during "
            + "the run): the file was written in that directory" + (now.map { ", now \($0)/\(name(path))" } ?? "")
            + ", not at \(path)"
    }

    /// A link or device at the name in a pinned directory, opened from that directory (never by path: the path may
    /// lead elsewhere by now): written in place when it is a device, FIFO or socket (`/dev/stdout`); a link to a
    /// file or directory, or one that leads nowhere, is refused by name.
    private static func writeInPlace(_ bytes: [UInt8], at name: String, in directory: RootedDirectory, shown: String) -> String? {
        let fd = openat(directory.descriptor, name, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return "\(shown) is a symbolic link that leads nowhere; reports are not written through links" }
            return "cannot open \(shown): \(RootedDirectory.reason(errno))"
        }
        var info = stat()
        guard fstat(fd, &info) == 0, RootedDirectory.Kind(info.st_mode) == .other else {
            close(fd)
            return "\(shown) is a symbolic link; reports are not written through links (name the file it points to)"
        }
        return writeAndClose(bytes, fd, shown: shown)
    }

    /// Appends `bytes` to `path` (created when missing), never through a link at the name: for files
    /// another program owns and reads after us (`GITHUB_STEP_SUMMARY`).
    package static func append(_ bytes: [UInt8], to path: String) -> String? {
        // O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of blocking the run's end forever.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            if errno == ENXIO { return "\(path) is a FIFO nobody reads" }
            return errno == ELOOP
                ? "\(path) is a symbolic link; not written through" : "cannot open \(path): \(RootedDirectory.reason(errno))"
        }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO {
            // A FIFO with its reader: the check (nothing to append) holds it open, so the reader does not see the end
            // before the summary; the append writes, then lets it go.
            if bytes.isEmpty {
                heldFIFOs.withLock { held in
                    if held[path] == nil { held[path] = fd } else { close(fd) }
                }
                return nil
            }
            defer { releaseFIFO(path) }
            return writeAndClose(bytes, fd, shown: path)
        }
        return writeAndClose(bytes, fd, shown: path)
    }

    /// Writes all of `bytes` to `fd` (opened non-blocking: a pipe, FIFO or device waits for its reader only until a stop's
    /// deadline, ``StandardStreams/writeUntilStopped(_:to:)``) and closes it; the reason when either fails.
    private static func writeAndClose(_ bytes: [UInt8], _ fd: Int32, shown: String) -> String? {
        let outcome = StandardStreams.writeUntilStopped(bytes, to: fd)
        let closed = close(fd) == 0
        switch outcome {
        case .written: return closed ? nil : "cannot write \(shown): \(RootedDirectory.reason(EIO))"
        case .readerGone: return "cannot write \(shown): its reader went away (\(RootedDirectory.reason(EPIPE)))"
        case .failed(let error): return "cannot write \(shown): \(RootedDirectory.reason(error))"
        case .stalled(let left):
            return "cannot write \(shown): its reader took nothing more after the stop was asked, within the grace; abandoned with "
                + "\(left) of \(bytes.count) bytes not written"
        }
    }

    /// A FIFO nobody reads yet cannot take a report: found before anything launches, never a wait at the end.
    private static func fifoProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return nil }
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            return errno == ENXIO
                ? "\(path) is a FIFO with no reader (start the reader first, or name a file)"
                : "cannot open \(path): \(RootedDirectory.reason(errno))"
        }
        // Held open until the report is written: a reader waiting since before the run would see end-of-file now.
        heldFIFOs.withLock { held in
            if held[path] == nil { held[path] = fd } else { close(fd) }
        }
        return nil
    }

    /// A character device that cannot be opened for writing (`/dev/tty` with no controlling terminal: ENXIO) is found
    /// before anything launches, by opening it as the report's write will (R10C-14: the program ran, then exit 74).
    private static func deviceProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return nil }
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return "cannot open \(path): \(RootedDirectory.reason(errno))" }
        close(fd)
        return nil
    }

    /// FIFOs ``fifoProblem(_:)`` found with a reader, each held open for writing (never written through) from the check
    /// until its report is written, or the process ends: `mkfifo p; gzip < p & sut-launch test --junit p` works.
    private static let heldFIFOs = Locked<[String: Int32]>([:])

    /// Closes the descriptor held on the FIFO at `path`, once its report was written (or could not be).
    private static func releaseFIFO(_ path: String) {
        if let fd = heldFIFOs.withLock({ $0.removeValue(forKey: path) }) { close(fd) }
    }

    /// Touches `path` as Bazel's `TEST_SHARD_STATUS_FILE` protocol asks: created when missing, its time set
    /// to now, its contents never truncated; a link or anything but a regular file at the name is refused.
    package static func touch(_ path: String) -> String? {
        if path.utf8.contains(0) { return "the path contains a NUL byte" }
        let fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            return errno == ELOOP
                ? "\(path) is a symbolic link; not written through" : "cannot open \(path): \(RootedDirectory.reason(errno))"
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return "\(path) is not a regular file" }
        return futimens(fd, nil) == 0 ? nil : "cannot set the time of \(path): \(RootedDirectory.reason(errno))"
    }

    /// True when `path` leads (through links) to a character device, FIFO or socket.
    private static func isDevice(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK
    }
}
