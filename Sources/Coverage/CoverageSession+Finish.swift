import AutomationSupport

extension CoverageSession {
    /// The most raw profiles one run merges.
    package static let profileLimit = 100_000

    /// Merges every raw profile into `DIR/merged.profdata`, exports `DIR/lcov.info`, `DIR/coverage.xml` and
    /// `DIR/summary.txt` (the per-file table), and, with `perScenario`, what each scenario's launches reached.
    /// Never throws: what could not be done is the outcome's ``CoverageOutcome/error`` or a note.
    package func finish(perScenario: Bool = false) -> CoverageOutcome {
        var outcome = CoverageOutcome()
        let launches = recorded
        outcome.launches = launches.count
        let profiles = rawProfiles()
        outcome.profiles = profiles.count
        outcome.notes += missingProfiles(launches, profiles: profiles)
        if let go = try? root.directory("go", create: false), !go.entries().isEmpty {
            outcome.notes.append(
                "coverage: Go coverage data in \(directory)/go (go tool covdata textfmt -i=\(directory)/go -o cover.out reads it)")
        }
        let programs = Array(Set(launches.compactMap { $0.executable.map(Self.name) })).sorted()
        guard !profiles.isEmpty else {
            outcome.error =
                "\(programs.isEmpty ? "the program" : programs.joined(separator: ", ")) wrote no profile:"
                + " build it with -profile-generate -profile-coverage-mapping"
            return outcome
        }
        guard profiles.count <= Self.profileLimit else {
            outcome.error = "\(profiles.count) raw profiles in \(directory)/raw, more than the \(Self.profileLimit) one run merges"
            return outcome
        }
        let work: (directory: RootedDirectory, name: String)
        do {
            let name = ".work-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
            work = (try root.directory(name), name)
        } catch {
            outcome.error = "cannot write in \(directory): \(error)"
            return outcome
        }
        defer { root.remove(entry: Array(work.name.utf8CString)) }
        let binaries = orderedBinaries(launches)
        do {
            try report(profiles, binaries: binaries, work: work, into: &outcome)
        } catch {
            outcome.error = error.description
            return outcome
        }
        if perScenario {
            for (scenario, files) in Dictionary(grouping: profiles, by: \.scenario) {
                guard let scenario else { continue }
                outcome.scenarios[scenario] = try? reach(files.map(\.path), scenario: scenario, binaries: binaries, work: work)
            }
        }
        return outcome
    }

    /// One raw profile: its path and the scenario directory it is in (nil: `raw/` itself).
    struct Profile {
        var path: String
        var name: String
        var scenario: String?
    }

    /// The regular `.profraw` files in `raw/` and its scenario directories (no link followed). Names the runtime never
    /// writes (not UTF-8, control characters: planted to forge a line where they are named) are not read.
    func rawProfiles() -> [Profile] {
        guard let raw = try? root.directory("raw", create: false) else { return [] }
        var result: [Profile] = []
        for entry in raw.entries() where Self.plausible(entry) {
            let name = entry.name
            switch raw.kind(of: name) {
            case .file where name.hasSuffix(".profraw"):
                result.append(Profile(path: absolute + "/raw/" + name, name: name))
            case .directory:
                guard let below = try? raw.directory(name, create: false) else { continue }
                for inner in below.entries()
                where Self.plausible(inner) && inner.name.hasSuffix(".profraw") && below.kind(of: inner.name) == .file {
                    result.append(Profile(path: absolute + "/raw/" + name + "/" + inner.name, name: inner.name, scenario: name))
                }
            default: continue
            }
            if result.count > Self.profileLimit { break }
        }
        return result
    }

    static func plausible(_ entry: RootedDirectory.Entry) -> Bool {
        entry.isUTF8 && !entry.name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Launches killed (SIGKILL, a timeout) that left no profile: `%p-` names them by pid.
    func missingProfiles(_ launches: [Launch], profiles: [Profile]) -> [String] {
        let pids = Set(profiles.compactMap { $0.name.split(separator: "-").first.flatMap { Int32($0) } })
        let missing = launches.filter { $0.killed != nil && !pids.contains($0.pid) }
        guard !missing.isEmpty else { return [] }
        let named = missing.prefix(10).map { "\($0.label) (pid \($0.pid), \($0.killed ?? "killed"))" }
        let more = missing.count > 10 ? " and \(missing.count - 10) more" : ""
        return [
            "coverage: \(missing.count) launch\(missing.count == 1 ? "" : "es") ended before writing a profile, not counted: "
                + named.joined(separator: ", ") + more
        ]
    }

    /// The executables launched, each once, in launch order.
    func orderedBinaries(_ launches: [Launch]) -> [String] {
        var seen: Set<String> = []
        return launches.compactMap(\.executable).filter { seen.insert($0).inserted }
    }

    static func name(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }

    /// Merge, export, write: `merged.profdata`, `lcov.info`, `coverage.xml`, `summary.txt`.
    private func report(
        _ profiles: [Profile], binaries: [String], work: (directory: RootedDirectory, name: String), into outcome: inout CoverageOutcome
    )
        throws(CoverageError)
    {
        let tools = ProfileTools(tools: tools, runner: runner)
        let profdata = try merge(profiles.map(\.path), name: "merged", tools: tools, work: work, into: &outcome)
        var dropped: [String] = []
        let lcov = try tools.export(profdata: profdata, binaries: binaries, arguments: ["-format=lcov"], dropped: &dropped)
        let summary = try tools.export(
            profdata: profdata, binaries: binaries.filter { !dropped.contains($0) }, arguments: ["-format=text", "-summary-only"],
            dropped: &dropped)
        let (totals, files) = try ProfileTools.summary(summary)
        let records = LCOVRecords(String(decoding: lcov, as: UTF8.self))
        let xml = CoberturaReport.render(records, timestamp: Int(WallClock.milliseconds() / 1000))
        var result = outcome
        result.totals = totals
        result.files = files
        do {
            try root.write(lcov, to: "lcov.info")
            try root.write(Array(xml.utf8), to: "coverage.xml")
            try root.write(Array(result.table().utf8), to: "summary.txt")
            try root.write(try work.directory.readFile("merged.profdata"), to: "merged.profdata")
        } catch {
            throw CoverageError("cannot write the coverage reports: \(error)")
        }
        outcome = result
    }

    /// Merges `paths` into `WORK/NAME.profdata` (the tool writes only into the fresh work directory); returns its path.
    private func merge(
        _ paths: [String], name: String, tools: ProfileTools, work: (directory: RootedDirectory, name: String),
        into outcome: inout CoverageOutcome
    ) throws(CoverageError) -> String {
        do { try work.directory.write(Array(paths.joined(separator: "\n").utf8), to: name + ".inputs") } catch {
            throw CoverageError("cannot write in \(directory): \(error)")
        }
        let base = absolute + "/" + work.name + "/" + name
        let merged = try tools.merge(listFile: base + ".inputs", output: base + ".profdata")
        if !merged.refused.isEmpty {
            outcome.notes.append(
                "coverage: \(merged.refused.count) raw profile\(merged.refused.count == 1 ? "" : "s") could not be read and"
                    + " \(merged.refused.count == 1 ? "was" : "were") left out: " + merged.refused.prefix(10).joined(separator: ", "))
        }
        return base + ".profdata"
    }

    /// What one scenario's profiles reached: files and functions with a count above zero.
    private func reach(_ paths: [String], scenario: String, binaries: [String], work: (directory: RootedDirectory, name: String))
        throws(CoverageError) -> ScenarioReach
    {
        let tools = ProfileTools(tools: tools, runner: runner)
        var ignored = CoverageOutcome()
        let profdata = try merge(paths, name: "scenario-" + scenario, tools: tools, work: work, into: &ignored)
        var dropped: [String] = []
        let lcov = try tools.export(profdata: profdata, binaries: binaries, arguments: ["-format=lcov"], dropped: &dropped)
        let records = LCOVRecords(String(decoding: lcov, as: UTF8.self))
        let files = records.files.filter { $0.linesHit > 0 }.map(\.path).sorted()
        let functions = records.files.flatMap { $0.functions.filter { $0.hits > 0 }.map(\.name) }
        return ScenarioReach(files: files, functions: Array(Set(tools.demangled(functions))).sorted())
    }
}
