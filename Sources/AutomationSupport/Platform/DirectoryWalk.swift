#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files below directories the user names (feature directories), links followed as the user expects, each
/// directory visited once by device and inode: a link back to an ancestor (a cycle) or a second way into a
/// directory (a diamond) adds nothing, so a scenario is found once. Bounded in depth and entries: past a
/// limit the walk fails (a suite is never silently cut short).
package enum DirectoryWalk {
    package static let depthLimit = 64
    package static let entryLimit = 100_000

    /// Why a walk stopped.
    package struct Error: Swift.Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// The paths of files below `root` whose name satisfies `include`, in name order, depth first (as `find`
    /// with sorted names). Recursion is bounded by ``depthLimit``.
    package static func files(under root: String, include: (String) -> Bool) throws(Error) -> [String] {
        try files(under: root, confinedTo: nil, outside: { _, _ in }, include: include)
    }

    /// The same, for a tree whose reads must stay inside `boundary` (a WireMock root): an entry below `root` that is a
    /// link whose real path is not below `boundary`'s real path is neither walked nor listed, but handed to `outside`
    /// with where it leads. Links that stay inside are followed; a dangling link is listed (its read fails later, by
    /// name).
    package static func files(
        under root: String, confinedTo boundary: String?, outside: (_ path: String, _ target: String) -> Void,
        include: (String) -> Bool
    ) throws(Error) -> [String] {
        let fence = boundary.flatMap { FileSystem.realPath($0) }.map { $0 == "/" ? "/" : $0 + "/" }
        /// Where `path` leads when it is a link out of the boundary; nil when it may be read.
        func escape(_ path: String) -> String? {
            guard let fence, FileSystem.isSymbolicLink(path), let real = FileSystem.realPath(path) else { return nil }
            return real.hasPrefix(fence) || real + "/" == fence ? nil : real
        }
        var visited = Set<Identity>()
        var entries = 0
        var files: [String] = []
        func walk(_ directory: String, depth: Int) throws(Error) {
            guard let identity = identity(directory) else { throw unreadable(directory, FileSystem.statFailure(directory)) }
            guard visited.insert(identity).inserted else { return }
            if depth > depthLimit { throw Error(description: "\(directory): deeper than \(depthLimit) directories below \(root)") }
            // A directory that cannot be listed (no read permission) fails the walk by name: never a silently shorter tree.
            let (names, notUTF8): ([String], [String: [UInt8]])
            switch FileSystem.entries(directory) {
            case .success(let listing): (names, notUTF8) = listing
            case .failure(let failure): throw unreadable(directory, failure)
            }
            for name in names {
                entries += 1
                if entries > entryLimit { throw Error(description: "\(root): more than \(entryLimit) entries; name a smaller directory") }
                let path = directory + "/" + name
                if let raw = notUTF8[name], !include(name), isDirectory(Array(directory.utf8) + [0x2F] + raw) {
                    // Its files could not be named: never a directory skipped silently.
                    throw Error(description: "\(path): a directory whose name is not UTF-8, so its files cannot be named; rename it")
                }
                if let target = escape(path) {
                    outside(path, target)
                } else if FileSystem.isDirectory(path) {
                    try walk(path, depth: depth + 1)
                } else if include(name) { // a dangling link or FIFO is named, and its read fails later: never skipped silently
                    files.append(path)
                } else if let failure = FileSystem.statFailure(path) {
                    // Listed but not looked at (its directory is not searchable): it may be a directory of files.
                    throw unreadable(path, failure)
                }
            }
        }
        try walk(root, depth: 0)
        return files
    }

    private static func unreadable(_ path: String, _ failure: FileSystem.ListingError?) -> Error {
        Error(
            description: "\(path.escapingControlCharacters()): cannot read it (\(failure?.description ?? "it is gone")); "
                + "make it and its directory readable (chmod u+rx) or move it out of the tree")
    }

    private struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private static func isDirectory(_ path: [UInt8]) -> Bool {
        var info = stat()
        return (path + [0]).withUnsafeBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) == 0 }
        } && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
