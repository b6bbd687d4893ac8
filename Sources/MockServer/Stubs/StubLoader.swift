import AutomationSupport

/// Loads stub files and directories: native files, WireMock mapping files, and WireMock root directories
/// (`mappings/` + `__files/`), side by side.
public enum StubLoader {
    /// Loads and merges every path, in order.
    /// - Throws: ``StubError`` naming the file, line and column of the first problem.
    /// - Parameter skip: lenient loading (`--lenient-stubs`): a mapping or file that cannot be loaded is
    ///   handed here and skipped; nil (the default) refuses it.
    public static func load(_ paths: [String], skip: ((StubError) -> Void)? = nil) throws(StubError) -> StubSet {
        var set = StubSet()
        for path in paths { set.merge(try load(path, skip: skip)) }
        return set
    }

    /// Loads one file or directory.
    public static func load(_ path: String, skip: ((StubError) -> Void)? = nil) throws(StubError) -> StubSet {
        // `root/` and `root/mappings/` are `root` and `root/mappings`: a trailing slash changes nothing.
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        if FileSystem.isDirectory(path) {
            if FileSystem.isDirectory(path + "/mappings") { return try wireMockMappings(path + "/mappings", root: path, skip: skip) }
            // A WireMock mappings directory named on its own: recursive too, its files from __files beside it.
            if path == "mappings" || path.hasSuffix("/mappings") {
                return try wireMockMappings(path, root: FileSystem.directory(of: path), skip: skip)
            }
            var set = StubSet()
            let names: [String]
            switch FileSystem.entries(path) {
            case .success(let listing): names = listing.names
            case .failure(let failure): throw StubError(file: path, "cannot list this directory (\(failure)); make it readable (chmod u+r)")
            }
            let jsonFiles = names.filter { $0.hasSuffix(".json") }
            if jsonFiles.isEmpty { throw StubError(file: path, "no .json stub files in this directory (and no mappings/ directory)") }
            for name in jsonFiles { set.merge(try lenient(path + "/" + name, wireMockFiles: nil, skip: skip)) }
            // A `{"mappings": []}` beside files that give stubs is one empty file (named in its note), not an empty directory.
            if !set.stubs.isEmpty { set.emptyRoots.removeAll() }
            for name in names where !name.hasSuffix(".json") && name != "__files" {
                let entry = path + "/" + name
                let why =
                    FileSystem.isDirectory(entry) ? "a directory: stub directories are read one level deep" : "stub files end in .json"
                set.notices.append("\(entry.escapingControlCharacters()): not loaded (\(why))")
            }
            return set
        }
        return try loadFile(path, wireMockFiles: nil, skip: skip)
    }

    /// Every `.json` file below `mappings`, recursively and in path order, as WireMock reads it; what is not loaded is
    /// named, and a directory that gave no mapping is said.
    private static func wireMockMappings(_ mappings: String, root: String, skip: ((StubError) -> Void)?) throws(StubError) -> StubSet {
        // A recording killed while it wrote its files leaves its marker: part of the traffic, never loaded as whole.
        if FileSystem.exists(root + "/" + RecordingLedger.inProgressMarker) {
            throw StubError(
                file: root,
                "a recording into this directory was cut short while its files were written (\(RecordingLedger.inProgressMarker) "
                    + "is there): record again, or delete that file to load what was written")
        }
        let found: [String]
        // Reads stay in the root: a link below `mappings/` leading out of it is refused by name (WireMock follows it),
        // like a mapping that cannot be loaded: skipped with lenient loading, the load's failure without. `mappings`
        // itself may be a link (the root's layout is its owner's): then what it leads to is the boundary.
        let realRoot = FileSystem.realPath(root) ?? root
        let inside = FileSystem.realPath(mappings).map { FileSystem.isBelow($0, realRoot) } ?? true
        var escapes: [StubError] = []
        do {
            found = try DirectoryWalk.files(
                under: mappings, confinedTo: inside ? root : mappings,
                outside: { path, target in
                    escapes.append(
                        StubError(
                            file: path,
                            "a link leading outside \(root.escapingControlCharacters()) (to \(target.escapingControlCharacters())): not followed; copy the file into the root, or link to a place inside it"
                        ))
                }, include: { _ in true })
        } catch { throw StubError(file: mappings, "\(error)") }
        for escape in escapes {
            guard let skip else { throw escape }
            skip(escape)
        }
        var set = StubSet()
        let files = root + "/__files"
        for found in found {
            let shown = found.escapingControlCharacters()
            if String(validating: Array(found.utf8), as: UTF8.self) == nil || found.contains("\u{FFFD}") {
                set.notices.append("\(shown): not loaded (its name is not UTF-8: rename it)")
            } else if !FileSystem.isRegularFile(found) {
                // A directory the walk could not enter (a path longer than the system allows) is never a silent skip.
                throw StubError(file: found, "cannot read it (\(FileSystem.unreadable(found)))")
            } else if found.hasSuffix(".json") {
                set.merge(try lenient(found, wireMockFiles: files, skip: skip))
            } else {
                set.notices.append("\(shown): not loaded (a mapping file's name ends in .json)")
            }
        }
        // The root's `__files` even when `mappings/` is empty (`serve` of a new root): admin-added mappings read there.
        set.bodyFileDirectories = [files]
        if set.stubs.isEmpty {
            set.emptyRoots.append(root)
            set.notices.append(
                "\(mappings.escapingControlCharacters()): no mappings in it: nothing loaded from \(root.escapingControlCharacters())")
        }
        return set
    }

    /// Loads a file; with `skip` (lenient loading), a file that cannot be loaded is handed to it and skipped.
    private static func lenient(_ file: String, wireMockFiles: String?, skip: ((StubError) -> Void)?) throws(StubError) -> StubSet {
        do {
            return try loadFile(file, wireMockFiles: wireMockFiles, skip: skip)
        } catch {
            guard let skip else { throw error }
            skip(error)
            return StubSet()
        }
    }

    /// Parses stub text (used by `load` and by tests).
    public static func parse(_ text: String, file: String, directory: String = ".") throws(StubError) -> StubSet {
        try parse(Array(text.utf8), file: file, directory: directory, wireMockFiles: nil)
    }

    private static func loadFile(_ path: String, wireMockFiles: String?, skip: ((StubError) -> Void)? = nil) throws(StubError) -> StubSet {
        guard FileSystem.isRegularFile(path), let bytes = FileSystem.read(path) else {
            throw StubError(
                file: path, FileSystem.isDirectory(path) ? "is a directory" : "cannot read the file (\(FileSystem.unreadable(path)))")
        }
        return try parse(bytes, file: path, directory: FileSystem.directory(of: path), wireMockFiles: wireMockFiles, skip: skip)
    }

    private static func parse(
        _ bytes: [UInt8], file: String, directory: String, wireMockFiles: String?,
        skip: ((StubError) -> Void)? = nil
    ) throws(StubError) -> StubSet {
        // A bare array in `mappings/` is refused below (the fast path would load `[]` as no route).
        let bareArray = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "[")
        if !(bareArray && wireMockFiles != nil), let stubs = nativeParsedWhereBuilt(bytes, file: file, directory: directory) {
            return stubs
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, refusingLoneSurrogates: true)
        } catch {
            throw StubError(file: file, position: error.position, error.message)
        }
        if isWireMock(root) {
            // A mapping in .../mappings/x.json takes its files from .../__files; else from __files beside it.
            var files = wireMockFiles ?? directory + "/__files"
            if wireMockFiles == nil, directory.hasSuffix("/mappings") || directory == "mappings" {
                files = FileSystem.directory(of: directory) + "/__files"
            }
            var set = try StubSet.wireMock(root, file: file, filesDirectory: files, skip: skip)
            set.bodyFileDirectories = [files]
            // `{"mappings": []}` named itself (not one file of a root's walk) is an empty root: refused where asked for.
            if wireMockFiles == nil, root["mappings"] != nil, set.stubs.isEmpty {
                set.emptyRoots.append(file)
                set.notices.append("\(file.escapingControlCharacters()): no mappings in it: nothing loaded from it")
            }
            return set
        }
        if root.elements != nil, wireMockFiles != nil {
            // r9d: a bare array in `mappings/` loaded as native routes; WireMock 2.35 refuses the file (an array is no
            // StubMapping), so the root would not load there.
            throw StubError(
                file: file, position: root.position,
                "a JSON array is not a mapping file (WireMock refuses it too: an array is not a stub mapping); in mappings/ write one "
                    + "mapping {\"request\": …, \"response\": …} or {\"mappings\": [...]}")
        }
        if root["routes"] != nil || root.elements != nil { return try StubSet.native(root, file: file, directory: directory) }
        guard let members = root.members else {
            throw StubError(
                file: file, position: root.position,
                "expected a stub file: {\"routes\": [...]}, a WireMock mapping or {\"mappings\": [...]}")
        }
        let keys = members.map(\.key)
        let known = ["routes", "mappings", "request", "response"]
        let hint = keys.lazy.compactMap { Suggestion.nearest(to: $0, among: known).map { "; did you mean \"\($0)\"?" } }.first ?? ""
        throw StubError(
            file: file, position: members.first?.keyPosition ?? root.position,
            "not a stub file: expected \"routes\" (native), \"request\"/\"response\" or \"mappings\" (WireMock), found \(keys.map { "\"\($0)\"" }.joined(separator: ", "))\(hint)"
        )
    }

    /// A WireMock mapping file (`mappings`, or one mapping's `request` / `response`), not a native one.
    private static func isWireMock(_ root: JSONNode) -> Bool {
        root["mappings"] != nil || root["request"] != nil || root["response"] != nil
    }

    /// A native file loaded with each route parsed by the thread that builds it (two threads for large files):
    /// the route trees never all exist at once, and parsing no longer runs alone before building. nil when the
    /// file is not a native stub file or anything in it is wrong: the whole parse then finds what and reports
    /// the first problem in file order.
    private static func nativeParsedWhereBuilt(_ bytes: [UInt8], file: String, directory: String) -> StubSet? {
        guard let (root, deferred) = try? JSONParser.parse(bytes, deferringArrayAt: "routes", refusingLoneSurrogates: true), let deferred,
            !isWireMock(root)
        else { return nil }
        return try? StubSet.native(root, deferred: deferred, file: file, directory: directory)
    }
}
