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
        func file(_ file: String, wireMockFiles: String?) throws(StubError) -> StubSet {
            do {
                return try loadFile(file, wireMockFiles: wireMockFiles, skip: skip)
            } catch {
                guard let skip else { throw error }
                skip(error)
                return StubSet()
            }
        }
        if FileSystem.isDirectory(path) {
            let mappings = path + "/mappings"
            if FileSystem.isDirectory(mappings) {
                // WireMock reads mappings/ recursively: every .json file below it, in path order here.
                let found: [String]
                do { found = try DirectoryWalk.files(under: mappings) { _ in true } } catch {
                    throw StubError(file: mappings, "\(error)")
                }
                var set = StubSet()
                let files = path + "/__files"
                for found in found {
                    if found.hasSuffix(".json") {
                        set.merge(try file(found, wireMockFiles: files))
                    } else {
                        set.notices.append("\(found.escapingControlCharacters()): not loaded (a mapping file's name ends in .json)")
                    }
                }
                if set.stubs.isEmpty && set.files.isEmpty {
                    set.notices.append(
                        "\(mappings.escapingControlCharacters()): no .json mapping files: nothing loaded from \(path.escapingControlCharacters())"
                    )
                }
                return set
            }
            var set = StubSet()
            let names = FileSystem.list(path)
            let jsonFiles = names.filter { $0.hasSuffix(".json") }
            if jsonFiles.isEmpty { throw StubError(file: path, "no .json stub files in this directory (and no mappings/ directory)") }
            for name in jsonFiles { set.merge(try file(path + "/" + name, wireMockFiles: nil)) }
            for name in names where !name.hasSuffix(".json") && name != "__files" {
                set.notices.append("\((path + "/" + name).escapingControlCharacters()): not loaded (stub files end in .json)")
            }
            return set
        }
        return try loadFile(path, wireMockFiles: nil, skip: skip)
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
        if let stubs = nativeParsedWhereBuilt(bytes, file: file, directory: directory) { return stubs }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw StubError(file: file, position: error.position, error.message)
        }
        if isWireMock(root) {
            // A mapping in .../mappings/x.json takes its files from .../__files; else from __files beside it.
            var files = wireMockFiles ?? directory + "/__files"
            if wireMockFiles == nil, directory.hasSuffix("/mappings") || directory == "mappings" {
                files = FileSystem.directory(of: directory) + "/__files"
            }
            return try StubSet.wireMock(root, file: file, filesDirectory: files, skip: skip)
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
        guard let (root, deferred) = try? JSONParser.parse(bytes, deferringArrayAt: "routes"), let deferred,
            !isWireMock(root)
        else { return nil }
        return try? StubSet.native(root, deferred: deferred, file: file, directory: directory)
    }
}
