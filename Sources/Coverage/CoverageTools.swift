import AutomationSupport

/// The toolchain's `llvm-profdata` and the `llvm-cov` (and `swift-demangle`) beside it. Debian's older pair comes
/// first on PATH here and refuses the profiles Swift 6.3 programs write, so the default is the pair beside the
/// `swift` found on PATH (its real path), then `llvm-profdata` on PATH; `--llvm-profdata PATH` names one.
package struct CoverageTools: Sendable, Equatable {
    /// The `llvm-profdata` that merges the raw profiles.
    package let profdata: String
    /// The `llvm-cov` beside it that exports lcov and summaries.
    package let cov: String
    /// `swift-demangle` beside it, for readable Swift function names; nil: names stay mangled.
    package let demangler: String?

    /// Finds the tools: `explicit` (`--llvm-profdata`) when given, else beside `swift` on the PATH of `environment`.
    /// - Throws: a one-line reason naming what is missing and how to name it.
    package static func locate(explicit: String?, environment: [String: String]) throws(CoverageError) -> CoverageTools {
        let profdata: String
        if let explicit {
            guard isExecutable(explicit), !FileSystem.isDirectory(explicit) else {
                throw CoverageError("--llvm-profdata \(explicit): not an executable file")
            }
            profdata = explicit
        } else if let swift = search("swift", path: environment["PATH"]), let real = FileSystem.realPath(swift),
            isExecutable(FileSystem.directory(of: real) + "/llvm-profdata")
        {
            profdata = FileSystem.directory(of: real) + "/llvm-profdata"
        } else if let found = search("llvm-profdata", path: environment["PATH"]) {
            profdata = found
        } else {
            throw CoverageError(
                "--coverage: no llvm-profdata beside swift or on PATH; install a Swift toolchain or pass --llvm-profdata PATH")
        }
        let directory = FileSystem.directory(of: FileSystem.realPath(profdata) ?? profdata)
        let siblings = [directory, FileSystem.directory(of: profdata)]
        guard let cov = siblings.map({ $0 + "/llvm-cov" }).first(where: isExecutable) else {
            throw CoverageError("--coverage: no llvm-cov beside \(profdata); llvm-profdata and llvm-cov come as a pair")
        }
        let demangler = siblings.map { $0 + "/swift-demangle" }.first(where: isExecutable)
        return CoverageTools(profdata: profdata, cov: cov, demangler: demangler)
    }

    static func isExecutable(_ path: String) -> Bool { Executable.isExecutable(path) && FileSystem.isRegularFile(path) }

    /// The first executable `name` in the directories of `path` (colon-separated).
    static func search(_ name: String, path: String?) -> String? {
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = String(directory) + "/" + name
            if isExecutable(candidate) { return candidate }
        }
        return nil
    }
}

/// Why coverage could not be measured, in one line.
package struct CoverageError: Error, Sendable, CustomStringConvertible, Equatable {
    package let description: String
    /// True when a report could not be written (exit 74), not when coverage could not be measured.
    package let ioFailure: Bool
    package init(_ description: String, ioFailure: Bool = false) {
        self.description = description
        self.ioFailure = ioFailure
    }
}
