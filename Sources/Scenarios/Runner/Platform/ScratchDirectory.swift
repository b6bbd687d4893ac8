import AutomationSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scenario's own directory: made fresh, removed with everything the scenario put in it.
package enum ScratchDirectory {
    /// The variables that keep a test away from the real home, and their directories inside its own
    /// directory (created empty): `work/` beside them is where commands run.
    package static let isolated: [(variable: String, directory: String)] = [
        ("HOME", "home"), ("TMPDIR", "tmp"), ("XDG_CONFIG_HOME", "xdg/config"), ("XDG_CACHE_HOME", "xdg/cache"),
        ("XDG_DATA_HOME", "xdg/data"), ("XDG_STATE_HOME", "xdg/state"),
    ]

    /// Makes `TMPDIR/sut-scenario-XXXXXX` (mode 0700); nil when it cannot.
    package static func make(in temporary: String) -> String? {
        var template = Array((temporary + "/sut-scenario-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
    }

    /// Removes `path` and everything below it. Symbolic links are removed, never followed (a program that
    /// leaves `ln -s / link` behind must not have us delete through it), every step is relative to an open
    /// directory (a directory swapped for a link meanwhile is not entered), and one descriptor serves any depth.
    package static func remove(_ path: String) {
        guard path.contains("/sut-scenario-") else { return } // only what make(in:) made
        let name = String(path.split(separator: "/").last ?? "")
        guard let parent = try? RootedDirectory(FileSystem.directory(of: path)) else { return }
        parent.remove(entry: Array(name.utf8CString))
    }
}
