import AutomationSupport
import ProcessEngine

/// Stored expected output: `__snapshots__/FEATURE-FILE-NAME/NAME.txt` beside the feature file. A missing or
/// different snapshot fails; `--update-snapshots` (or `SUT_UPDATE_SNAPSHOTS=1`) writes what the run saw
/// instead, except on a CI (`CI` or any variable ``ContinuousIntegration`` knows set): CI never writes
/// snapshots (insta's rule). A snapshot written is said: on stderr and in the step's line of every report.
package enum Snapshots {
    /// Why a snapshot name cannot be used, or nil.
    package static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a snapshot needs a name" }
        if name == "." || name == ".." { return "snapshot name \"\(name)\" names a directory, not a file; give the snapshot a name" }
        if name.contains("/") || name.contains("\\") { return "snapshot name \"\(name)\" may not contain a path separator" }
        if name.utf8.contains(0) || name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "snapshot name \"\(name.debugDescription.dropFirst().dropLast())\" may not contain control characters"
        }
        if (name + ".txt").utf8.count > RootedDirectory.nameLimit {
            return "snapshot name \"\(name.prefix(40))…\" is \(name.utf8.count) bytes long; at most \(RootedDirectory.nameLimit - 4)"
        }
        return nil
    }

    /// The name as a case-insensitive disk (macOS, Windows) sees it: canonically equivalent names (NFC, NFD) are
    /// already one String; case is folded as full case folding does (`Out`, `out`, `OUT` and `Straße`, `STRASSE`).
    static func fileSystemKey(_ name: String) -> String { name.uppercased().lowercased() }

    package static func path(named name: String, featureFile: String) -> String {
        FileSystem.directory(of: featureFile) + "/" + relativePath(named: name, featureFile: featureFile)
    }

    /// `__snapshots__/FEATURE-FILE-NAME/NAME.txt`, below the feature file's directory.
    static func relativePath(named name: String, featureFile: String) -> String {
        let featureName = String(featureFile.split(separator: "/").last ?? Substring(featureFile))
        return "__snapshots__/" + featureName + "/" + name + ".txt"
    }

    static func compare(_ actual: [UInt8], named name: String, run: ScenarioRun) throws(StepFailure) {
        if let problem = nameProblem(name) { throw StepFailure(problem, kind: .error) }
        guard run.snapshotNames.insert(fileSystemKey(name)).inserted else {
            throw StepFailure(
                "the snapshot \"\(name)\" (or one that differs from it only by case) was already compared in this scenario: a second use "
                    + "would replace the first under --update-snapshots; give each its own name", kind: .error)
        }
        if let other = run.options.snapshotClaims?.claim(fileSystemKey(name), of: run.pickle.uri, by: run.pickle) {
            throw StepFailure(
                "the snapshot \"\(name)\" (or one that differs from it only by case) is compared by another scenario of this run too, "
                    + "\(other.location): the last to update it would win and the other fail; give each its own name", kind: .error)
        }
        let hint = "sut-launch test --update-snapshots \(run.pickle.uri)"
        // Written and compared portably ([CWD], [HOME], [TMP], [MOCK], [VERSION], the user's redactions); a snapshot
        // that matches the output as it is still passes.
        let portable = try run.portableOutput().apply(actual, deadline: run.deadline, deadlineName: run.scenarioTimeoutName)
        var written: String?
        if let failure = check(
            portable, named: name, featureFile: run.pickle.uri,
            update: run.options.updateSnapshots, environment: run.options.environment, updateCommand: hint, raw: actual,
            written: &written)
        {
            throw StepFailure(failure)
        }
        if let written {
            run.stepNote = "snapshot written: \(written)"
            Console.line("\(run.pickle.location): snapshot written: \(written)".escapingControlCharacters())
        }
    }

    /// Compares `actual` with the snapshot `name` of `featureFile` (wildcards allowed in it), writing it instead
    /// when updating and not in CI. Below the feature file's directory no link is followed, reading or writing:
    /// a link planted in `__snapshots__/` fails the step instead of being written through.
    /// - Parameters:
    ///   - update: update asked for (`--update-snapshots`, or `SUT_UPDATE_SNAPSHOTS=1` in `environment`).
    ///   - updateCommand: how the user updates, for the message.
    ///   - raw: the output before ``PortableOutput`` made it portable (`actual`): a snapshot matching it passes too.
    ///   - written: set to the snapshot's path when it was written (created or changed).
    /// - Returns: why it fails (with a diff), or nil when it matches or was written.
    package static func check(
        _ actual: [UInt8], named name: String, featureFile: String, update: Bool, environment: [String: String],
        updateCommand: String, raw: [UInt8]? = nil, written: inout String?
    ) -> String? {
        if let problem = nameProblem(name) { return problem }
        let path = path(named: name, featureFile: featureFile)
        let relative = relativePath(named: name, featureFile: featureFile)
        let root: RootedDirectory
        do { root = try RootedDirectory(FileSystem.directory(of: featureFile)) } catch {
            return "cannot open the snapshot \(path): \(error)"
        }
        let ci = ContinuousIntegration.detected(environment)
        let inCI = ci != nil
        let asked = update || ["1", "true", "yes"].contains(environment["SUT_UPDATE_SNAPSHOTS"]?.lowercased() ?? "")
        let found = root.kind(of: relative)
        if found != nil && found != .file {
            return "the snapshot \(path) is not a regular file (a link or directory?); sut-launch does not read or write through links"
        }
        let stored = root.read(relative)
        // A snapshot of only `...` lines matches any output: it checks nothing, so it never passes (an update
        // replaces it with what the program printed).
        let vacuous = stored.map { OutputPattern.matchesAnything($0) } ?? false
        if vacuous && !(asked && !inCI) {
            return "the snapshot \(path) holds only `...` lines, which match any output, so it checks nothing; "
                + "to write what the program prints: \(updateCommand)"
        }
        var difference = "" // the diff of the comparison that failed, rendered by it (never compared twice)
        if !vacuous, let stored {
            guard let diff = OutputPattern.mismatch(expected: stored, actual: actual) else { return nil }
            if let raw, OutputPattern.agrees(expected: stored, actual: raw) { return nil }
            difference = diff
        }
        if asked && !inCI {
            // Escaped: a line `...` or `[..]` the program printed is compared as text next time, never as a wildcard.
            let escaped = OutputPattern.escaped(actual)
            let bytes = escaped.last == UInt8(ascii: "\n") || escaped.isEmpty ? escaped : escaped + [UInt8(ascii: "\n")]
            do { try root.write(bytes, to: relative) } catch { return "cannot write the snapshot \(path): \(error)" }
            written = path
            return nil
        }
        let hint =
            inCI && asked
            ? "snapshots are never written on a CI (\(ci ?? "CI") is set); update them on your machine"
            : "to accept what the run saw: \(updateCommand)"
        guard stored != nil else { return "no snapshot \"\(name)\" yet (\(path)); \(hint)" }
        return "the snapshot \"\(name)\" (\(path)) differs:\n\(difference)\n\(hint)"
    }
}

/// The snapshot files one run's scenarios compare, by feature file and name as a case-insensitive disk sees it: the
/// load refuses a literal name two scenarios share; a name reached through `${NAME}` is known only as it runs.
package final class SnapshotClaims: Sendable {
    private let claims = Locked<[String: Pickle]>([:])

    package init() {}

    /// Claims `key` of `featureFile` for `pickle` (its retries included); the scenario that claimed it first, when another did.
    func claim(_ key: String, of featureFile: String, by pickle: Pickle) -> Pickle? {
        claims.withLock { claims in
            let slot = featureFile + "\u{0}" + key
            if let first = claims[slot], first != pickle { return first }
            claims[slot] = pickle
            return nil
        }
    }
}
