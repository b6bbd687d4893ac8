#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// True when `first` and `second` name one file: the same canonical directory and name (the file need not
    /// exist yet: `out.json` and `./dir/../out.json`), or, when both exist, the same device and inode (a symlink
    /// or a hard link to it).
    /// Device and inode of the file at `path` (links followed), or nil when there is none.
    package static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    package static func sameFile(_ first: String, _ second: String) -> Bool {
        if let one = canonicalName(first), let other = canonicalName(second), one == other { return true }
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// realpath of the directory, then the last component as written, or where it links to (a dangling link
    /// names the file a write through it would create); nil when the directory does not exist.
    private static func canonicalName(_ path: String, depth: Int = 0) -> String? {
        guard !path.isEmpty, let directory = realPath(directory(of: path)) else { return nil }
        var name = path
        if let slash = path.lastIndex(of: "/") { name = String(path[path.index(after: slash)...]) }
        if name.isEmpty || name == "." || name == ".." { return realPath(path) }
        let resolved = (directory == "/" ? "" : directory) + "/" + name
        var info = stat()
        guard depth < 16, lstat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return resolved }
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(resolved, &target, target.count - 1)
        guard length > 0 else { return resolved }
        let link = String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return canonicalName(link.hasPrefix("/") ? link : directory + "/" + link, depth: depth + 1)
    }
}

extension FileSystem {
    /// Whether the absolute, resolved `path` lies below `directory` (never `directory` itself): compared by whole
    /// components, so `/a/bc` is not below `/a/b`, and everything but `/` is below `/`.
    package static func isBelow(_ path: String, _ directory: String) -> Bool {
        path.hasPrefix(directory == "/" ? "/" : directory + "/")
    }

    /// The canonical absolute path of `path` (links resolved), for a path that need not exist yet: the part that
    /// exists resolved, the rest appended as written; nil when nothing of it resolves or it ends in `..`.
    package static func resolvedPath(_ path: String, depth: Int = 0) -> String? {
        if let real = realPath(path) { return real }
        guard depth < 256, !path.isEmpty else { return nil }
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let name = trimmed.split(separator: "/").last.map(String.init) ?? ""
        guard !name.isEmpty, name != "..", name != "." else { return nil }
        guard let parent = resolvedPath(directory(of: String(trimmed)), depth: depth + 1) else { return nil }
        return (parent == "/" ? "" : parent) + "/" + name
    }
}

extension FileSystem {
    /// `relative` found from `directory`, leading `./` dropped (`.` and `./x` give `./x`, `d` and `./x` give `d/x`), as
    /// messages show a path: never `././x`. An absolute `relative` is itself.
    package static func joined(_ directory: String, _ relative: String) -> String {
        guard !relative.hasPrefix("/") else { return relative }
        var rest = Substring(relative)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2).drop { $0 == "/" } }
        if rest.isEmpty { return directory }
        return directory == "." ? "./" + rest : (directory.hasSuffix("/") ? directory : directory + "/") + rest
    }
}

extension FileSystem {
    /// The directory for temporary files: `TMPDIR` when set and not empty, made absolute (a relative one is read
    /// from the current directory, so what is made there is found from any working directory: a program run in
    /// `-C DIR` was given `SSL_CERT_FILE=tmp/…` that named nothing), else `/tmp`.
    package static func temporaryDirectory(_ environment: [String: String]) -> String {
        guard let value = environment["TMPDIR"], !value.isEmpty else { return "/tmp" }
        return absolute(value)
    }

    /// `path` made absolute without resolving anything: a relative one is put after the working directory (as
    /// `getcwd` spells it); unchanged when it is absolute or the working directory cannot be read.
    package static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let here = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (here == "/" ? "" : here) + "/" + path
    }
}
