#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory that the product writes into without ever leaving it: every path below it is walked one
/// component at a time with `openat` and `O_NOFOLLOW`, so a symbolic link anywhere below the root (planted
/// by a program under test, a fixture or a user) is refused, never followed. `..`, absolute paths, empty
/// components, NUL and names over 255 bytes are refused. Files are written to a temporary name in their
/// directory and renamed into place: nothing half-written is ever seen under the real name, and a link
/// or hard link at the name is replaced, not written through.
package final class RootedDirectory: Sendable {
    /// The root's path, for messages.
    package let path: String
    let descriptor: Int32

    /// The longest name a component may have, in bytes (NAME_MAX on Linux and macOS).
    package static let nameLimit = 255

    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Opens the directory `path` names. The user (or the product) chose `path` itself, so links in it are
    /// followed; `create` makes it and its missing parents first (`mkdir -p`), one component at a time: a component
    /// made here is opened with `O_NOFOLLOW` (a link swapped in for it is refused), and nothing is made through a
    /// dangling link.
    package init(_ path: String, create: Bool = false) throws(Error) {
        let path = path.isEmpty ? "." : path
        if path.utf8.contains(0) { throw Error("\(path): the path contains a NUL byte") }
        let fd = create ? try Self.openCreating(path) : open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw Error(
                code == ENOTDIR || code == ENOENT && Self.isLink(path)
                    ? "\(path) is not a directory" + (Self.isLink(path) ? " (a symbolic link to nothing)" : "")
                    : "cannot open \(path): \(Self.reason(code))")
        }
        self.path = path
        self.descriptor = fd
    }

    /// `mkdir -p path`, opened: the components that exist are followed (the user typed them); from the first one made
    /// here on, each is opened with `O_NOFOLLOW`. A dangling link is refused by name, never created through.
    private static func openCreating(_ path: String) throws(Error) -> Int32 {
        var fd = open(path.hasPrefix("/") ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Error("cannot open \(path): \(reason(errno))") }
        var made = false
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/").map(String.init) {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            var next: Int32 = made ? -1 : openat(fd, component, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if next < 0 && (made || errno == ENOENT) {
                if mkdirat(fd, component, 0o777) != 0 && errno != EEXIST {
                    let code = errno
                    close(fd)
                    throw Error("cannot create \(prefix): \(reason(code))")
                }
                made = true
                next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let code = errno
            var info = stat()
            let isLink = next < 0 && fstatat(fd, component, &info, AT_SYMLINK_NOFOLLOW) == 0 && Kind(info.st_mode) == .link
            close(fd)
            guard next >= 0 else {
                throw Error(
                    isLink || code == ELOOP
                        ? "\(prefix) is a symbolic link to nothing; no directory is created through it"
                        : code == ENOTDIR ? "\(prefix) is not a directory" : "cannot open \(prefix): \(reason(code))")
            }
            fd = next
        }
        return fd
    }

    /// The directory `relative` below this one (made when missing and `create`), following no link.
    package func directory(_ relative: String, create: Bool = true) throws(Error) -> RootedDirectory {
        var current = self
        for component in try Self.components(relative) {
            current = try current.child(component, create: create, shown: relative)
        }
        return current
    }

    private func child(_ name: String, create: Bool, shown: String) throws(Error) -> RootedDirectory {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = openat(descriptor, name, flags)
        if fd < 0 && errno == ENOENT && create {
            if mkdirat(descriptor, name, 0o777) != 0 && errno != EEXIST {
                throw Error("cannot create \(describe(name, in: shown)): \(Self.reason(errno))")
            }
            fd = openat(descriptor, name, flags)
        }
        guard fd >= 0 else { throw refusal(name, shown: shown, code: errno) }
        return RootedDirectory(path: path + "/" + name, descriptor: fd)
    }

    /// Writes `bytes` to `relative` (its directories made as needed), with `mode` (less the umask) when the
    /// file is new. `replacing: false` refuses a name that exists (a file the product did not create).
    package func write(_ bytes: [UInt8], to relative: String, mode: Int = 0o644, replacing: Bool = true) throws(Error) {
        let components = try Self.components(relative)
        guard let name = components.last else { throw Error("a file needs a name") }
        let parent = try directory(components.dropLast().joined(separator: "/"))
        try parent.writeFile(bytes, name: name, mode: mode_t(mode), replacing: replacing, shown: relative)
    }

    private func writeFile(_ bytes: [UInt8], name: String, mode: mode_t, replacing: Bool, shown: String) throws(Error) {
        try writeFile(name: name, mode: mode, replacing: replacing, shown: shown) { Self.writeAll(bytes, to: $0) }
    }

    /// Writes the file `name` in this directory with what `fill` writes to its descriptor (0, or an errno).
    func writeFile(name: String, mode: mode_t, replacing: Bool, shown: String, fill: (Int32) -> Int32) throws(Error) {
        let temporary = ".sut-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp"
        let fd = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Error("cannot write \(describe(name, in: shown)): \(Self.reason(errno))") }
        let written = fill(fd)
        let closed = close(fd) == 0
        guard written == 0 && closed else {
            unlinkat(descriptor, temporary, 0)
            throw Error("cannot write \(describe(name, in: shown)): \(Self.reason(written == 0 ? EIO : written))")
        }
        if replacing {
            if renameat(descriptor, temporary, descriptor, name) != 0 {
                let code = errno
                unlinkat(descriptor, temporary, 0)
                throw code == EISDIR || code == ENOTEMPTY || code == EEXIST
                    ? Error("\(describe(name, in: shown)) is a directory")
                    : Error("cannot write \(describe(name, in: shown)): \(Self.reason(code))")
            }
            return
        }
        // linkat never replaces: a name that appeared meanwhile (even a dangling link) is refused.
        let linked = linkat(descriptor, temporary, descriptor, name, 0)
        let code = errno
        unlinkat(descriptor, temporary, 0)
        if linked != 0 {
            throw code == EEXIST
                ? Error("\(describe(name, in: shown)) already exists; it is not overwritten")
                : Error("cannot write \(describe(name, in: shown)): \(Self.reason(code))")
        }
    }

    /// The bytes of the regular file `relative`, following no link; nil when it is missing, not a regular file,
    /// reached through a link, or larger than ``FileSystem/readLimit``.
    package func read(_ relative: String) -> [UInt8]? {
        try? readFile(relative)
    }

    /// The bytes of the regular file `relative`, following no link and never waiting: anything that is not a
    /// regular file (a FIFO, whose open would block until a writer came; a socket; a device) is refused by name
    /// before it is opened, and the descriptor opened (`O_NONBLOCK | O_NOFOLLOW`) is checked again with `fstat`,
    /// so nothing swapped in between is read either.
    package func readFile(_ relative: String) throws(Error) -> [UInt8] {
        let components = try Self.components(relative)
        guard let name = components.last else { throw Error("a file needs a name") }
        let parent = try directory(components.dropLast().joined(separator: "/"), create: false)
        var info = stat()
        guard fstatat(parent.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            let code = errno
            throw code == ENOENT ? Error("\(relative): no such file") : Error("cannot read \(relative): \(Self.reason(code))")
        }
        if let kind = Self.notAFile(info.st_mode) { throw Error("\(relative) is \(kind), not a file") }
        let fd = openat(parent.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Error("cannot read \(relative): \(Self.reason(errno))") }
        defer { close(fd) }
        guard fstat(fd, &info) == 0 else { throw Error("cannot read \(relative): \(Self.reason(errno))") }
        if let kind = Self.notAFile(info.st_mode) { throw Error("\(relative) is \(kind), not a file") }
        guard let bytes = FileSystem.read(descriptor: fd) else {
            throw Error("cannot read \(relative): over \(FileSystem.readLimit) bytes, or the read failed")
        }
        return bytes
    }

    /// What a mode names when it is not a regular file ("a FIFO", "a socket"…), or nil for a regular file.
    static func notAFile(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link (sut-launch reads no file through a link)"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a regular file"
        }
    }

    /// What `relative` is (a link is reported as a link, not followed); nil when nothing is there or a
    /// directory on the way is missing or a link.
    package func kind(of relative: String) -> Kind? {
        guard let components = try? Self.components(relative), let name = components.last,
            let parent = try? directory(components.dropLast().joined(separator: "/"), create: false)
        else { return nil }
        return parent.kind(ofEntry: name)
    }

    /// What `relative` is, or nil when it or a directory on its way is missing; a directory on the way that is a link
    /// (dangling, a loop or not), a file or unreadable is thrown by name: whether `relative` exists cannot be told
    /// without following it, so a `does not exist` never passes on it (``kind(of:)`` says nil there).
    package func existingKind(of relative: String) throws(Error) -> Kind? {
        let components = try Self.components(relative)
        guard let name = components.last else { throw Error("a file needs a name") }
        var current = self
        for component in components.dropLast() {
            let fd = openat(current.descriptor, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                let code = errno
                if code == ENOENT && current.kind(ofEntry: component) == nil { return nil }
                throw current.refusal(component, shown: relative, code: code)
            }
            current = RootedDirectory(path: current.path + "/" + component, descriptor: fd)
        }
        return current.kind(ofEntry: name)
    }

    /// What `relative` is when it is there and not a regular file ("a FIFO", "a symbolic link (…)"), as the
    /// content steps say it; nil for a regular file or nothing there.
    package func notAFileDescription(of relative: String) -> String? {
        guard let components = try? Self.components(relative), let name = components.last,
            let parent = try? directory(components.dropLast().joined(separator: "/"), create: false)
        else { return nil }
        var info = stat()
        guard fstatat(parent.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return Self.notAFile(info.st_mode)
    }

    func kind(ofEntry name: String) -> Kind? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return Kind(info.st_mode)
    }

    /// A directory entry's type, as `lstat` sees it.
    package enum Kind: Sendable, Equatable {
        case file, directory, link, other

        init(_ mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .file
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .link
            default: self = .other
            }
        }
    }

    /// Why a path given to a rooted directory is refused.
    package struct Error: Swift.Error, Sendable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// The components of a relative path: `.` dropped; empty components, `..`, absolute paths, NUL and
    /// names over ``nameLimit`` bytes refused.
    package static func components(_ relative: String) throws(Error) -> [String] {
        if relative.isEmpty { return [] }
        if relative.hasPrefix("/") { throw Error("\"\(relative)\" is an absolute path; name a path inside the directory") }
        if relative.utf8.contains(0) { throw Error("\"\(relative)\" contains a NUL byte") }
        var result: [String] = []
        for component in relative.split(separator: "/", omittingEmptySubsequences: false) {
            switch component {
            case ".": continue
            case "": throw Error("\"\(relative)\" has an empty component (//, or / at the end)")
            case "..": throw Error("\"\(relative)\" climbs out with ..; name a path inside the directory")
            default:
                if component.utf8.count > nameLimit {
                    throw Error(
                        "\"\(component.prefix(40))…\" is \(component.utf8.count) bytes long; a file name may have at most \(nameLimit)")
                }
                result.append(String(component))
            }
        }
        return result
    }

    /// Why `name` could not be opened as a directory: a link, a file, or the system's reason.
    private func refusal(_ name: String, shown: String, code: Int32) -> Error {
        switch kind(ofEntry: name) {
        case .link: Error("\(describe(name, in: shown)) is a symbolic link; sut-launch does not write or read through links")
        case .file, .other: Error("\(describe(name, in: shown)) is not a directory")
        case nil where code == ENOENT: Error("\(describe(name, in: shown)): no such directory")
        default: Error("cannot open \(describe(name, in: shown)): \(Self.reason(code))")
        }
    }

    func describe(_ name: String, in shown: String) -> String {
        shown.isEmpty || shown == name ? "\"\(name)\" in \(path)" : "\"\(name)\" (of \(shown)) in \(path)"
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)).lowercased() }

    /// Writes all of `bytes`; 0, or the errno of the failure.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw -> Int in
                #if canImport(Glibc)
                Glibc.write(fd, raw.baseAddress, raw.count)
                #else
                Darwin.write(fd, raw.baseAddress, raw.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
}
