import AutomationSupport

/// A `files` route: the request path after the route's literal prefix names a file below its directory. A name with
/// no such file does not match (R4a-16): the request is unexpected, its near miss names the directory and the name
/// looked for, and a strict run fails on it, where a 404 counted as a call of the route passed.
extension Stub {
    /// The directory a `files` route serves; nil for every other stub.
    var servedDirectory: String? {
        responses.count == 1 ? responses[0].filesDirectory : nil
    }

    /// The file the request names below `directory`, as a real path and as named; or why there is none (a near miss's words).
    func servedFile(_ input: MatchInput, directory: String) -> Result<(path: String, name: String), FileMiss> {
        guard case .template(let template) = url else { return .failure(FileMiss(name: "", reason: "not a files route")) }
        let literalCount = template.prefix { if case .literal = $0 { return true } else { return false } }.count
        let raw = input.segments.dropFirst(literalCount)
        let segments = raw.map { PercentEncoding.decode($0, plusAsSpace: false) }
        let name = segments.joined(separator: "/")
        guard !segments.isEmpty,
            !segments.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty || $0.contains("/") || $0.contains("\0") })
        else {
            return .failure(FileMiss(name: name, reason: "not a file name (empty, '.', '..' or a NUL)"))
        }
        if segments.contains(where: { $0.contains("\u{FFFD}") })
            && !raw.contains(where: { $0.uppercased().contains("%EF%BF%BD") || $0.contains("\u{FFFD}") })
        {
            return .failure(FileMiss(name: name, reason: "its name is not UTF-8 (such a file cannot be served)"))
        }
        let candidate = directory + "/" + name
        guard let real = FileSystem.realPath(candidate), let root = FileSystem.realPath(directory) else {
            let dangling = FileSystem.isSymbolicLink(candidate)
            return .failure(FileMiss(name: name, reason: dangling ? "a link to nothing (no such file at its target)" : "no such file"))
        }
        // The refusal stays; its reason is the real one (m3: a link out and a directory were both "no such file").
        guard FileSystem.isBelow(real, root) else {
            return .failure(FileMiss(name: name, reason: "a link that leads out of the directory (only files inside it are served)"))
        }
        guard FileSystem.isRegularFile(real) else {
            let kind = FileSystem.isDirectory(real) ? "a directory, not a file" : FileSystem.specialKind(real) ?? "not a regular file"
            return .failure(FileMiss(name: name, reason: kind))
        }
        guard FileSystem.isBelow(real, root) else {
            return .failure(FileMiss(name: name, reason: "a link that leads out of the directory (not served)"))
        }
        guard FileSystem.isRegularFile(real) else { return .failure(FileMiss(name: name, reason: "not a regular file")) }
        return .success((real, name))
    }

    /// The mismatch of a `files` route whose file does not exist; nil when it does, or for another stub.
    func fileMismatch(_ input: MatchInput) -> Mismatch? {
        guard let directory = servedDirectory, case .failure(let miss) = servedFile(input, directory: directory) else { return nil }
        return Mismatch(
            field: "file", expected: "a file below \(directory)", actual: "\(miss.reason): \"\(miss.name.prefix(200))\"", weight: 1)
    }
}

/// Why a `files` route has no file for a request.
struct FileMiss: Error {
    var name: String
    var reason: String
}
