#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole trees below a rooted directory: listing, removing and copying, following no link. Copies hold two
/// descriptors per level and stop at ``RootedDirectory/depthLimit`` levels and ``RootedDirectory/entryLimit``
/// entries; removal holds one descriptor whatever the depth (it climbs back with `..`, checked by device and inode).
extension RootedDirectory {
    /// The deepest a copied tree may go.
    package static let depthLimit = 64
    /// The most entries a copy visits.
    package static let entryLimit = 100_000

    /// One name in a directory: its bytes as stored (names need not be UTF-8) and its text.
    package struct Entry: Sendable {
        package let bytes: [CChar]
        package var name: String { String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        /// True when the stored bytes are valid UTF-8 (``name`` names this entry exactly).
        package var isUTF8: Bool { Array(name.utf8) == bytes.dropLast().map { UInt8(bitPattern: $0) } }
    }

    /// The entries of this directory (no `.`/`..`), in byte order.
    package func entries() -> [Entry] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var result: [Entry] = []
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 }.map { CChar(bitPattern: $0) }) + [0]
            }
            if bytes != [46, 0] && bytes != [46, 46, 0] { result.append(Entry(bytes: bytes)) }
        }
        return result.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }

    /// Removes the entry `bytes` (a NUL-terminated name) and, for a directory, everything below it. Links are
    /// removed, never followed. Directories are made writable first (a program may leave a read-only one).
    package func remove(entry bytes: [CChar]) {
        var info = stat()
        guard fstatat(descriptor, bytes, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        guard Kind(info.st_mode) == .directory else {
            unlinkat(descriptor, bytes, 0)
            return
        }
        let root = fstatIdentity(descriptor)
        // Each level: the directory's identity, its name in its parent, and the names still to look at.
        var levels: [(identity: Identity, name: [CChar], pending: [Entry])] = []
        var current = openat(descriptor, bytes, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard current >= 0 else { return }
        fchmod(current, 0o700)
        levels.append((fstatIdentity(current), bytes, RootedDirectory(path: path, descriptor: dup(current)).entries()))
        while !levels.isEmpty {
            if let next = levels[levels.count - 1].pending.popLast() {
                guard fstatat(current, next.bytes, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                if Kind(info.st_mode) != .directory {
                    unlinkat(current, next.bytes, 0)
                    continue
                }
                let child = openat(current, next.bytes, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { continue }
                fchmod(child, 0o700)
                close(current)
                current = child
                levels.append((fstatIdentity(current), next.bytes, RootedDirectory(path: path, descriptor: dup(current)).entries()))
                continue
            }
            let finished = levels.removeLast()
            let parentIdentity = levels.last?.identity ?? root
            let parent = openat(current, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(current)
            // Moved meanwhile (a program still running): stop rather than remove anything outside.
            guard parent >= 0, fstatIdentity(parent) == parentIdentity else {
                if parent >= 0 { close(parent) }
                return
            }
            unlinkat(parent, finished.name, AT_REMOVEDIR)
            if levels.isEmpty {
                close(parent)
                return
            }
            current = parent
        }
    }

    /// Copies the tree `source` into this directory: directories, regular files (with their permission bits)
    /// and, as `links` says, symbolic links. Names that already exist here are replaced.
    /// - Returns: what was left out (under ``CopyRules/skipOthers``), one line each.
    package func copy(from source: RootedDirectory, rules: CopyRules) throws(Error) -> [String] {
        var state = CopyState(budget: rules.sizeBudget)
        try copyLevel(from: source, relative: "", depth: 0, rules: rules, state: &state)
        return state.skipped
    }

    /// How ``copy(from:rules:)`` treats what is not a plain file or directory.
    package struct CopyRules: Sendable {
        /// Keep a link whose target is relative, has `..` only at its start, and stays inside the copy; refuse
        /// (throw) any other link. False: leave links out.
        package var keepLinksInside: Bool
        /// Leave out (and report) devices, sockets, FIFOs, non-UTF-8 names and files over the budget; false: throw.
        package var skipOthers: Bool
        /// The most bytes of file content copied; nil for no limit.
        package var sizeBudget: Int?
        /// When the copy stops (checked before each entry): a scenario's deadline. nil for none.
        package var deadline: ContinuousClock.Instant?

        package init(keepLinksInside: Bool, skipOthers: Bool, sizeBudget: Int? = nil, deadline: ContinuousClock.Instant? = nil) {
            self.keepLinksInside = keepLinksInside
            self.skipOthers = skipOthers
            self.sizeBudget = sizeBudget
            self.deadline = deadline
        }
    }

    private struct CopyState {
        var budget: Int?
        var entries = 0
        var skipped: [String] = []
        /// The entry limit was reached with `skipOthers`: noted once, nothing more copied.
        var stopped = false
    }

    /// Counts one more entry; throws at the deadline, and at the entry limit unless the caller leaves things out
    /// (then it is noted, as the size cap is: a limit of the copy, not a write failure) and the copy stops (true).
    private static func stops(at source: RootedDirectory, _ relative: String, _ rules: CopyRules, _ state: inout CopyState) throws(Error)
        -> Bool
    {
        state.entries += 1
        if let deadline = rules.deadline, ContinuousClock.now >= deadline {
            throw Error("stopped at its deadline after \(state.entries - 1) entries")
        }
        guard state.entries > entryLimit else { return false }
        guard rules.skipOthers else { throw Error("\(source.path): more than \(entryLimit) entries; not copied") }
        state.skipped.append("\(relative.isEmpty ? "." : relative): more than \(entryLimit) entries in the copy; the rest not copied")
        state.stopped = true
        return true
    }

    private func copyLevel(from source: RootedDirectory, relative: String, depth: Int, rules: CopyRules, state: inout CopyState)
        throws(Error)
    {
        if depth >= Self.depthLimit { throw Error("\(source.path): deeper than \(Self.depthLimit) directories; not copied") }
        for entry in source.entries() {
            if try Self.stops(at: source, relative, rules, &state) { return }
            let shown = relative.isEmpty ? entry.name : relative + "/" + entry.name
            func leaveOut(_ why: String) throws(Error) {
                guard rules.skipOthers else { throw Error("\(source.path)/\(entry.name): \(why)") }
                state.skipped.append("\(shown): \(why)")
            }
            guard entry.isUTF8 else {
                try leaveOut("the name is not UTF-8")
                continue
            }
            var info = stat()
            guard fstatat(source.descriptor, entry.bytes, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            switch Kind(info.st_mode) {
            case .directory:
                if depth + 1 >= Self.depthLimit {
                    try leaveOut("deeper than \(Self.depthLimit) directories, not copied")
                    continue
                }
                if kind(ofEntry: entry.name) != .directory, kind(ofEntry: entry.name) != nil { remove(entry: entry.bytes) }
                let from = try source.directory(entry.name, create: false)
                let to = try directory(entry.name)
                try to.copyLevel(from: from, relative: shown, depth: depth + 1, rules: rules, state: &state)
                if state.stopped { return }
            case .file:
                let size = Int(info.st_size)
                if let budget = state.budget, size > budget {
                    try leaveOut("over the copy's size cap, not copied")
                    continue
                }
                state.budget = state.budget.map { $0 - size }
                let fd = openat(source.descriptor, entry.bytes, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                guard fd >= 0 else {
                    try leaveOut("cannot be read (\(Self.reason(errno)))")
                    continue
                }
                defer { close(fd) }
                // What was opened is still that regular file (a FIFO swapped in would read as empty).
                var opened = stat()
                guard fstat(fd, &opened) == 0, Self.notAFile(opened.st_mode) == nil, opened.st_ino == info.st_ino,
                    opened.st_dev == info.st_dev
                else {
                    try leaveOut("changed while it was copied, not copied")
                    continue
                }
                if kind(ofEntry: entry.name) == .directory { remove(entry: entry.bytes) }
                try writeFile(name: entry.name, mode: mode_t(info.st_mode) & 0o777, replacing: true, shown: shown) {
                    Self.copyAll(from: fd, to: $0)
                }
            case .link:
                guard rules.keepLinksInside else {
                    try leaveOut("a symbolic link, not copied")
                    continue
                }
                let target = source.linkTarget(entry.bytes)
                guard Self.staysInside(target, depth: depth) else {
                    throw Error(
                        "\(source.path)/\(entry.name) is a symbolic link to \(target), out of the copied directory; copies keep only links that stay inside"
                    )
                }
                if kind(ofEntry: entry.name) != nil { remove(entry: entry.bytes) }
                if symlinkat(target, descriptor, entry.name) != 0 {
                    throw Error("cannot link \(describe(entry.name, in: shown)): \(Self.reason(errno))")
                }
            case .other:
                try leaveOut(
                    "\(Self.notAFile(info.st_mode) ?? "not a regular file"), not copied (a copy takes regular files, directories and links only)"
                )
            }
        }
    }

    /// A link target that cannot leave the copy: relative, `..` only as its first components (the link's own
    /// directory is a real one, so those climb exactly), never above the copy's root.
    package static func staysInside(_ target: String, depth: Int) -> Bool {
        guard !target.isEmpty, !target.hasPrefix("/") else { return false }
        var climbing = true
        var climbs = 0
        for component in target.split(separator: "/") {
            if component == ".." {
                guard climbing else { return false }
                climbs += 1
            } else if component != "." {
                climbing = false
            }
        }
        return climbs <= depth
    }

    private func linkTarget(_ bytes: [CChar]) -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlinkat(descriptor, bytes, &buffer, 4096)
        return count < 0 ? "" : String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func copyAll(from source: Int32, to destination: Int32) -> Int32 {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw -> Int in
                #if canImport(Glibc)
                Glibc.read(source, raw.baseAddress, raw.count)
                #else
                Darwin.read(source, raw.baseAddress, raw.count)
                #endif
            }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count == 0 { return 0 }
            let failure = writeAll(Array(chunk[0..<count]), to: destination)
            if failure != 0 { return failure }
        }
    }

    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    private func fstatIdentity(_ fd: Int32) -> Identity {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return Identity(device: .max, inode: .max) }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
