import AutomationSupport

extension RerunFile {
    /// The loaded scenarios the entries name, as their ``Pickle/location``s.
    /// - Throws: ``Problem`` naming the first entry that names a file outside the features of this run, a line where no
    ///   scenario or Examples row starts, or a name no scenario has; with `uniqueNames` (`--quarantine`), a name
    ///   that more than one scenario has (outside one outline's rows): the entry would quarantine more than meant.
    package static func resolve(
        _ entries: [Entry], in pickles: [Pickle], file: String, uniqueNames: Bool = false
    ) throws(Problem) -> Set<String> {
        // Paths and names by code points: a file name in NFD is another file than its NFC spelling, and a quarantine
        // entry names "the scenario's exact name" (Swift's == would take a canonically equivalent one).
        var byFile: [ScalarKey: [Pickle]] = [:]
        for pickle in pickles { byFile[ScalarKey(FileSystem.realPath(pickle.uri) ?? pickle.uri), default: []].append(pickle) }
        var locations: Set<String> = []
        for entry in entries {
            switch entry {
            case .location(let path, let line, let at, let name, let identity):
                let shown = path.prefix(200).escapingControlCharacters()
                guard let candidates = byFile[ScalarKey(FileSystem.realPath(path) ?? path)] else {
                    throw Problem(file, at, "\(shown) is not one of the feature files of this run; name its directory or file")
                }
                // Messages: the pickle that failed, by its name, Examples values and steps, wherever it now is in its
                // file (rows reordered or inserted above it, same-named scenarios swapped); every one that is it.
                if let identity {
                    let same = candidates.filter(identity.matches)
                    guard !same.isEmpty else {
                        throw changed(
                            file, at, "\(shown):\(line)", said: identity.name, row: identity.row,
                            now: "no scenario of \(shown) now has its name, Examples values and steps")
                    }
                    for pickle in same { locations.insert(pickle.location) }
                    continue
                }
                let matched = candidates.filter { $0.line == line || $0.scenarioLine == line }
                guard !matched.isEmpty else {
                    throw Problem(file, at, "\(shown):\(line): no scenario or Examples row starts at line \(line) of \(shown)")
                }
                // A JUnit or Messages file names the scenario that failed: one that now starts at its line under another
                // name (the scenarios were moved) is not it (plain rerun.txt has lines only, as Cucumber's).
                // JUnit names an outline's row with its label, the Messages as Cucumber's pickle (``Pickle/specName``);
                // JUnit drops terminal sequences from names.
                let names = { (pickle: Pickle) in [pickle.name, pickle.specName, pickle.name.strippingTerminalSequences()] }
                if let name, !matched.contains(where: { names($0).contains { $0.sameScalars(name) } }) {
                    throw changed(
                        file, at, "\(shown):\(line)", said: name, row: "",
                        now: "the scenario at line \(line) is now \"\(matched[0].name.prefix(120).escapingControlCharacters())\"")
                }
                for pickle in matched { locations.insert(pickle.location) }
                // JUnit records a name and a line only: when other scenarios of the file have that name, the line cannot
                // tell which one failed (two swapped, one moved): every one of them is rerun, never fewer than failed.
                if let name {
                    for pickle in candidates where names(pickle).contains(where: { $0.sameScalars(name) }) {
                        locations.insert(pickle.location)
                    }
                }
            case .name(let feature, let scenario, let at):
                let matched = pickles.filter { $0.name.sameScalars(scenario) && (feature.isEmpty || $0.featureName.sameScalars(feature)) }
                guard !matched.isEmpty else {
                    guard !feature.isEmpty else {
                        throw Problem(
                            file, at,
                            "no scenario of this run is named \"\(scenario.prefix(120).escapingControlCharacters())\""
                                + "\(scenario.normalizationNote(among: pickles.lazy.map(\.name))); write a scenario's exact name or FILE.feature:LINE"
                        )
                    }
                    throw Problem(
                        file, at,
                        "no scenario \"\(scenario.prefix(120).escapingControlCharacters())\" in feature \"\(feature.prefix(80).escapingControlCharacters())\""
                    )
                }
                if uniqueNames, let problem = ambiguity(scenario, matched) { throw Problem(file, at, problem) }
                for pickle in matched { locations.insert(pickle.location) }
            }
        }
        return locations
    }

    /// `FILE:LINE: this file says "NAME" failed there, but NOW; the feature file changed since: …`.
    private static func changed(_ file: String, _ at: Int, _ place: String, said name: String, row: String, now: String) -> Problem {
        Problem(
            file, at,
            "\(place): this file says \"\(name.prefix(120).escapingControlCharacters())\"\(row) failed there, but \(now); the feature file "
                + "changed since: run it whole, or write the file again")
    }

    /// Why a name that several scenarios have (not only one outline's rows) cannot be an entry, or nil.
    static func ambiguity(_ name: String, _ matched: [Pickle]) -> String? {
        var scenarios: [String] = []
        var seen: Set<String> = []
        for pickle in matched where seen.insert("\(pickle.uri):\(pickle.scenarioLine)").inserted {
            scenarios.append("\(pickle.uri):\(pickle.scenarioLine)".escapingControlCharacters())
        }
        guard scenarios.count > 1 else { return nil }
        return "\(scenarios.count) scenarios are named \"\(name.prefix(120).escapingControlCharacters())\" ("
            + scenarios.prefix(5).joined(separator: ", ") + (scenarios.count > 5 ? ", …" : "")
            + "); name the one meant by FILE.feature:LINE"
    }

    /// A `--quarantine` file: per line, `path:line` or `path:line:line` (a path ending in `.feature`) or a scenario's
    /// name; blank lines and `#` comments skipped.
    package static func quarantineEntries(_ bytes: [UInt8], file: String) throws(Problem) -> [Entry] {
        guard bytes.count <= sizeLimit else { throw Problem(file, 1, "larger than \(sizeLimit >> 20) MiB (\(bytes.count) bytes)") }
        let text = try RerunFile.text(bytes, file: file)
        var entries: [Entry] = []
        for (index, raw) in lines(text).enumerated() {
            var line = raw
            if index == 0, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            let trimmed = line.trimmingCharacters(in: " \t")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.contains(".feature:") {
                // As a rerun file's line: `path:line`, or Cucumber's `path:line:line`.
                do {
                    for case .location(let path, let number, _, _, _) in try rerunLines(Array(trimmed.utf8), file: file) {
                        entries.append(.location(path: path, line: number, at: index + 1))
                    }
                } catch {
                    throw Problem(
                        file, index + 1, "'\(trimmed.prefix(80).escapingControlCharacters())' is not FILE.feature:LINE (a line from 1)")
                }
            } else {
                entries.append(.name(feature: "", scenario: trimmed, at: index + 1))
            }
            guard entries.count <= entryLimit else { throw Problem(file, index + 1, "more than \(entryLimit) entries") }
        }
        return entries
    }
}
