import AutomationSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory only this user can enter, made fresh for one run and removed with what is in it.
enum PrivateDirectory {
    /// Makes `temporary/PREFIX` plus six random characters, mode 0700 (mkdtemp: never an existing name, never
    /// through a link at the name); nil when it cannot.
    static func make(in temporary: String, prefix: String) -> String? {
        var template = Array((temporary + "/" + prefix + "XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
    }

    /// Removes `path` (one ``make(in:prefix:)`` made) and everything in it, following no link.
    /// - Parameter files: the names written in it, removed by path when no descriptor can be had for its parent (out
    ///   of file descriptors, what may have made the run fail): the directory is this user's alone (0700).
    static func remove(_ path: String, prefix: String, files: [String] = []) {
        let name = String(path.split(separator: "/").last ?? "")
        guard name.hasPrefix(prefix) else { return }
        if let parent = try? RootedDirectory(FileSystem.directory(of: path)) { parent.remove(entry: Array(name.utf8CString)) }
        guard FileSystem.exists(path) else { return }
        // Not removed: no descriptor for the parent or for the walk (out of file descriptors).
        for file in files where !file.contains("/") { _ = unlink(path + "/" + file) }
        _ = rmdir(path) // removes no link, and nothing that still holds a file
    }
}
