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
    static func remove(_ path: String, prefix: String) {
        let name = String(path.split(separator: "/").last ?? "")
        guard name.hasPrefix(prefix), let parent = try? RootedDirectory(FileSystem.directory(of: path)) else { return }
        parent.remove(entry: Array(name.utf8CString))
    }
}
