import AutomationSupport

extension CoverageSession {
    /// The most raw profiles one run merges.
    package static let profileLimit = 100_000

    /// Merges every raw profile into `DIR/merged.profdata`, exports `DIR/lcov.info`, `DIR/coverage.xml` and
    /// `DIR/summary.txt` (the per-file table), and, with `perScenario`, what each scenario's launches reached.
    /// Never throws: what could not be done is the outcome's ``CoverageOutcome/error`` or a note. Every note and
    /// error is one line, its names' control characters escaped (``Visible``).
    package func finish(perScenario: Bool = false) -> CoverageOutcome {
        var outcome = measure(perScenario: perScenario)
        outcome.notes = outcome.notes.map(Visible.text)
        outcome.error = outcome.error.map(Visible.text)
        return outcome
    }

    private func measure(perScenario: Bool) -> CoverageOutcome {
        var outcome = CoverageOutcome()
        let launches = recorded
        outcome.launches = launches.count
        // An empty selection or shard launched nothing: nothing to measure is not a failure.
        guard !launches.isEmpty else { return outcome }
        let found = rawProfiles()
        outcome.notes += missingProfiles(launches, profiles: found)
        let profiles = screen(found, into: &outcome)
        outcome.profiles = profiles.count
        // Only Go's own data files, directly in go/ (where GOCOVERDIR has them written): a leftover subdirectory or a
        // user's file there is not this run's data.
        let go =
            (try? root.directory("go", create: false)).map { go in
                go.entries().contains { Self.isGoData($0.name) && go.kind(of: $0.name) == .file }
            } ?? false
        if go {
            outcome.notes.append(
                "coverage: Go coverage data in \(directory)/go (go tool covdata textfmt -i=\(directory)/go -o cover.out reads it;"
                    + " go tool covdata percent -i=\(directory)/go prints it)")
        }
        guard !profiles.isEmpty else {
            if go && found.isEmpty { outcome.goOnly = true } else { outcome.error = noProfile(launches, found: found) }
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
            outcome.writeFailed = true
            return outcome
        }
        defer { root.remove(entry: Array(work.name.utf8CString)) }
        let binaries = orderedBinaries(launches)
        do {
            try report(profiles, binaries: binaries, work: work, into: &outcome)
        } catch {
            outcome.error = error.description
            outcome.writeFailed = error.ioFailure
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

    /// Why no raw profile was read: `raw/` swapped for a link, every launch stopped before it could write one, or
    /// programs not built instrumented.
    func noProfile(_ launches: [Launch], found: [Profile]) -> String {
        if !found.isEmpty { return "none of the \(found.count) raw profiles could be read (named above)" }
        if root.kind(of: "raw") != .directory {
            return "\(directory)/raw is no longer a directory (replaced during the run by a link or a file); no profile was read"
        }
        if launches.allSatisfy({ $0.killed != nil }) {
            let how = Array(Set(launches.compactMap(\.killed))).sorted().joined(separator: ", ")
            return "every launch was stopped (\(how)) before writing its profile: nothing was measured"
        }
        let programs = Array(Set(launches.compactMap { $0.executable.map(Self.name) })).sorted()
        return "\(programs.isEmpty ? "the program" : programs.joined(separator: ", ")) wrote no profile:"
            + " build it with -profile-generate -profile-coverage-mapping (a Go program: go build -cover)"
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
        let summary = try tools.export(
            profdata: profdata, binaries: binaries, arguments: ["-format=text", "-summary-only"], dropped: &dropped)
        let (totals, files) = try ProfileTools.summary(summary)
        // lcov has no escaping: a source file whose name breaks a line would forge records. Its record is left out of
        // lcov.info (and so of coverage.xml's classes), and named; its lines were measured and stay in every total and
        // the threshold (leaving them out turned 1.9 % into 100 %).
        let broken = files.map(\.filename).filter(Visible.breaksLines)
        if !broken.isEmpty {
            let one = broken.count == 1
            outcome.notes.append(
                "coverage: \(broken.count) source file\(one ? "" : "s") \(one ? "has" : "have") no record in lcov.info:"
                    + " \(one ? "its name holds" : "their names hold") a line break, which lcov cannot hold (\(one ? "its" : "their")"
                    + " lines count in the totals and summary.txt): " + broken.prefix(10).joined(separator: ", "))
        }
        let used = binaries.filter { !dropped.contains($0) }
        let lcov = try tools.export(
            profdata: profdata, binaries: used, arguments: ["-format=lcov", ProfileTools.ignoreBrokenNames], dropped: &dropped)
        outcome.notes += droppedBinaries(dropped) + foreignProfiles(profiles, tools: tools)
        // A name that is not UTF-8 stays as its bytes in lcov.info only: the text reports show another name (R9D-5).
        let garbled = LCOVRecords.namesNotUTF8(lcov).map(Visible.text)
        if !garbled.isEmpty {
            let one = garbled.count == 1
            outcome.notes.append(
                "coverage: \(garbled.count) source file name\(one ? " is" : "s are") not UTF-8: lcov.info keeps \(one ? "its" : "their")"
                    + " bytes, coverage.xml and summary.txt show each byte UTF-8 cannot read as U+FFFD: "
                    + garbled.prefix(10).joined(separator: ", "))
        }
        let records = LCOVRecords(String(decoding: lcov, as: UTF8.self))
        let xml = CoberturaReport.render(records, files: files, totals: totals, timestamp: Int(WallClock.milliseconds() / 1000))
        var result = outcome
        result.totals = totals
        result.files = files
        do {
            try root.write(lcov, to: "lcov.info")
            try root.write(Array(xml.utf8), to: "coverage.xml")
            try root.write(Array(result.table().utf8), to: "summary.txt")
            try root.write(try work.directory.readFile("merged.profdata"), to: "merged.profdata")
        } catch {
            // None is kept: a new lcov.info beside no coverage.xml would look whole.
            for name in Self.outputs { root.remove(entry: Array(name.utf8CString)) }
            throw CoverageError("cannot write the coverage reports (none was kept): \(error)", ioFailure: true)
        }
        outcome = result
    }

    /// Merges `paths` into `WORK/NAME.profdata` (the tool writes only into the fresh work directory); returns its path.
    private func merge(
        _ paths: [String], name: String, tools: ProfileTools, work: (directory: RootedDirectory, name: String),
        into outcome: inout CoverageOutcome
    ) throws(CoverageError) -> String {
        // The list's lines are `[WEIGHT,]FILE`: a comma anywhere in a path (`/builds/ws,1/cov`) read as a weight and the
        // merge failed; with the weight written (1, the default) the rest of the line is the path, commas and all.
        let list = paths.map { "1," + $0 }.joined(separator: "\n")
        do { try work.directory.write(Array(list.utf8), to: name + ".inputs") } catch {
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
        let lcov = try tools.export(
            profdata: profdata, binaries: binaries, arguments: ["-format=lcov", ProfileTools.ignoreBrokenNames], dropped: &dropped)
        let records = LCOVRecords(String(decoding: lcov, as: UTF8.self))
        let files = records.files.filter { $0.linesHit > 0 }.map(\.path).sorted()
        let functions = records.files.flatMap { $0.functions.filter { $0.hits > 0 }.map(\.name) }
        return ScenarioReach(files: files, functions: Array(Set(tools.demangled(functions))).sorted())
    }
}
