import AutomationSupport

/// Coverage of the program under test across every launch of one run (`--coverage DIR`): the variables each
/// launch gets (`LLVM_PROFILE_FILE=DIR/raw[/SCENARIO]/%p-%m.profraw`, which its children inherit, and
/// `GOCOVERDIR=DIR/go`), the launches recorded as they end, then ``finish(perScenario:)`` merges and exports.
/// DIR is a root: everything sut-launch writes goes through ``RootedDirectory``, following no link.
package final class CoverageSession: Sendable {
    /// DIR as given, for messages.
    package let directory: String
    /// DIR's real path: launches may run in another directory.
    package let absolute: String
    let root: RootedDirectory
    package let tools: CoverageTools
    let runner: any CoverageToolRunning
    private let launches = Locked<[Launch]>([])
    /// `DIR/.lock`'s descriptor, held while the session lives.
    private let lock: Int32

    /// One launch, as it ended.
    package struct Launch: Sendable {
        package var label: String
        package var executable: String?
        package var pid: Int32
        /// Empty when it exited; else how it ended ("killed by SIGKILL", "timed out").
        package var killed: String?
        package var scenario: String?

        package init(label: String, executable: String?, pid: Int32, killed: String?, scenario: String? = nil) {
            self.label = label
            self.executable = executable
            self.pid = pid
            self.killed = killed
            self.scenario = scenario
        }
    }

    /// Opens (creating) DIR, takes its lock (`DIR/.lock`: a second run on the same DIR is refused), and clears what
    /// an earlier run left: the `.profraw` files in `raw/`, Go's data files in `go/` (``isGoData(_:)``), the reports and stale `.work-*` directories.
    /// - Throws: when DIR cannot be made or used (a file, a link below it), or another run holds it.
    package init(directory: String, tools: CoverageTools, runner: any CoverageToolRunning) throws(CoverageError) {
        // The variables hold DIR's absolute path: a relative DIR is checked with the working directory's path in front
        // (`ws%p/` would have sent the profiles to `ws<pid>/`, outside DIR), before anything is made; then as resolved.
        try Self.checkSpelling(directory, path: FileSystem.absolute(directory))
        if let resolved = FileSystem.realPath(directory) { try Self.checkSpelling(directory, path: resolved) }
        do {
            root = try RootedDirectory(directory, create: true)
        } catch {
            throw CoverageError("--coverage \(Visible.text(directory)): \(error)")
        }
        absolute = FileSystem.realPath(directory) ?? directory
        try Self.checkSpelling(directory, path: absolute)
        let fd: Int32
        switch LockFile.take(absolute + "/.lock") {
        case .taken(let taken): fd = taken
        case .cannotOpen:
            throw CoverageError(
                "--coverage \(Visible.text(directory)): cannot open \(Visible.text(directory))/.lock (a link or not writable)")
        case .held(let pid):
            throw CoverageError(
                "--coverage \(Visible.text(directory)): another sut-launch run is using this directory\(pid.map { " (pid \($0))" } ?? ""); wait for it or choose another directory"
            )
        }
        lock = fd
        do {
            try Self.clear(root)
        } catch {
            LockFile.release(fd)
            throw CoverageError("--coverage \(Visible.text(directory)): \(error)")
        }
        self.directory = directory
        self.tools = tools
        self.runner = runner
    }

    deinit { LockFile.release(lock) }

    /// `path`, DIR as the launches' variables and the tools' input list hold it, may hold no `%` (LLVM_PROFILE_FILE
    /// reads %p, %m, %h, %t… anywhere in it, with no escape: profiles would be scattered outside DIR) and no control
    /// character (llvm-profdata reads its inputs one per line: a line break would split every path).
    static func checkSpelling(_ directory: String, path: String) throws(CoverageError) {
        let shown = Visible.text(directory)
        let whose = path == directory ? "the path" : "its absolute path \(Visible.text(path))"
        if path.contains("%") {
            throw CoverageError(
                "--coverage \(shown): \(whose) holds %, which LLVM_PROFILE_FILE reads as a pattern; choose another directory")
        }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw CoverageError(
                "--coverage \(shown): \(whose) holds a control character (a line break); choose another directory")
        }
    }

    /// The reports an earlier run wrote; removed when a run starts, so none is left looking like this run's.
    static let outputs = ["lcov.info", "coverage.xml", "summary.txt", "merged.profdata"]

    /// Removes the reports an earlier run left in DIR (``outputs``), when DIR is a directory and no run holds it: what
    /// `test` does before its feature files load, as its other reports get their placeholders, so a run killed while a
    /// large suite loads leaves none of them looking like its own. What it cannot do is left to
    /// ``init(directory:tools:runner:)``, which opens DIR for the run and says why it could not.
    package static func removeEarlierReports(in directory: String) {
        guard let root = try? RootedDirectory(directory, create: false),
            case .taken(let fd) = LockFile.take((FileSystem.realPath(directory) ?? directory) + "/.lock")
        else { return }
        defer { LockFile.release(fd) }
        for entry in root.entries() where outputs.contains(entry.name) { root.remove(entry: entry.bytes) }
    }

    private static func clear(_ root: RootedDirectory) throws(RootedDirectory.Error) {
        for entry in root.entries() where outputs.contains(entry.name) || entry.name.hasPrefix(".work-") {
            root.remove(entry: entry.bytes)
        }
        let raw = try root.directory("raw")
        Self.removeProfiles(raw, depth: 0)
        let go = try root.directory("go")
        for entry in go.entries() where isGoData(entry.name) && go.kind(of: entry.name) == .file { go.remove(entry: entry.bytes) }
    }

    /// A file Go's runtime writes in GOCOVERDIR (`covmeta.HASH`, `covcounters.HASH.PID.TIME`): the only files of
    /// `DIR/go` a run removes as it starts and counts as it ends. Anything else there (a subdirectory an earlier
    /// tool left, a user's file) is neither deleted nor taken for this run's data.
    package static func isGoData(_ name: String) -> Bool {
        (name.hasPrefix("covmeta.") || name.hasPrefix("covcounters.")) && !name.contains("/")
    }

    private static func removeProfiles(_ directory: RootedDirectory, depth: Int) {
        for entry in directory.entries() {
            if entry.name.hasSuffix(".profraw") && directory.kind(of: entry.name) == .file {
                directory.remove(entry: entry.bytes)
            } else if depth == 0, directory.kind(of: entry.name) == .directory,
                let below = try? directory.directory(entry.name, create: false)
            {
                removeProfiles(below, depth: 1)
            }
        }
    }

    /// The variables a launch gets; `scenario` (a ``scenarioID(_:)``) puts its profiles in a directory of its own,
    /// made fresh: whatever is at its name (a link, a file planted by a program) is removed first, never followed.
    package func environment(scenario: String? = nil) -> [(key: String, value: String)] {
        if let scenario, let raw = try? root.directory("raw", create: false) {
            if raw.kind(of: scenario) != .directory { raw.remove(entry: Array(scenario.utf8CString)) }
            _ = try? raw.directory(scenario)
        }
        let raw = absolute + "/raw" + (scenario.map { "/" + $0 } ?? "")
        return [("LLVM_PROFILE_FILE", raw + "/%p-%m.profraw"), ("GOCOVERDIR", absolute + "/go")]
    }

    /// Records a launch that ended.
    package func record(_ launch: Launch) {
        launches.withLock { $0.append(launch) }
    }

    /// The launches recorded so far.
    package var recorded: [Launch] { launches.withLock { $0 } }

    /// A directory name for a scenario: `FEATURE-LINE-HASH`, letters, digits, `.`, `-` and `_` only, unique per
    /// feature file path and line.
    package static func scenarioID(uri: String, line: Int) -> String {
        let base = uri.split(separator: "/").last.map(String.init) ?? "scenario"
        let stem = base.hasSuffix(".feature") ? String(base.dropLast(8)) : base
        let safe = String(
            stem.unicodeScalars.prefix(60).map { scalar -> Character in
                let value = scalar.value
                let allowed =
                    (48...57).contains(value) || (65...90).contains(value) || (97...122).contains(value) || value == 45 || value == 95
                return allowed ? Character(scalar) : "_"
            })
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uri.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\(safe.isEmpty ? "scenario" : safe)-\(line)-\(String(hash & 0xffff_ffff, radix: 16))"
    }
}
