import AutomationSupport
import ProcessEngine
import Scenarios

/// No output of `test` may name a file the run reads (docs/security.md). Checked once the feature files are
/// found and parsed, before any hook or scenario runs, so the reports of the refused run are not written either.
///
/// The files the run reads, as far as they can be known before it runs:
/// - every file named on the command line: feature files, `--steps`, `--rerun-failed` (which `--write-rerun` alone
///   may name: it is read before the run, written after), `--quarantine`, `--shard-timings`, `-D PROGRAM`;
/// - under each directory operand: every `.feature` and `.steps.json` file and everything under `__snapshots__/`;
///   beside each feature file: the step files discovery loads and its `__snapshots__/FILE/`;
/// - what a selected scenario's steps name: `Given the files from "DIR"` and `Given the stubs "PATH"` (every file
///   under them), `Given the program "PATH"` (a path with `/`), with `${NAME}` from `-D` and the environment.
/// A file a step names in a way known only as it runs (a path a program prints) is not covered.
/// An output that exists is compared by device and inode (links, hard links, `./` spellings); one that does not
/// yet exist cannot be a file the run reads, but is still compared resolved against the command line's files.
enum TestReadFiles {
    /// Files visited under the feature and fixture directories, at most (a larger tree is checked this far).
    static let walkLimit = 200_000

    static func check(_ options: TestOptions, featureFiles: [String], steps: [NamedStep], environment: [String: String])
        throws(UsageError)
    {
        var outputs = Self.outputs(options)
        // `--format github` appends its summary to GITHUB_STEP_SUMMARY: an output like the others, checked like them.
        if options.github, let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            for other in outputs where FileSystem.sameFile(summary, other.path) {
                throw UsageError(.sameFile(first: "GITHUB_STEP_SUMMARY \(summary)", second: other.origin))
            }
            outputs.append((summary, "GITHUB_STEP_SUMMARY \(summary)"))
        }
        guard !outputs.isEmpty else { return }
        try checkConsole(outputs)
        let named = commandLine(options)
        for output in outputs {
            // `--write-rerun` may name the `--rerun-failed` file: it is read before the run and written after it.
            let rereads = output.origin.hasPrefix("--write-rerun ")
            for input in named where FileSystem.sameFile(input.path, output.path) && !(rereads && input.rerun) {
                throw UsageError(.wouldOverwrite(output: output.origin, input: input.origin))
            }
        }
        let found = found(
            featurePaths: options.featurePaths, defines: options.scenario.defines, featureFiles: featureFiles, steps: steps,
            environment: environment)
        // A report not there yet, inside a directory a step reads whole (`Given the files from "d"`, `Given the stubs
        // "d"`): the scenario (or the next run's) would copy or load it as one of its files.
        // An output over a file there is said as such first ("would overwrite").
        try check(outputs, found: found)
        let trees = found.filter { $0.origin.hasPrefix(stepNamed) && FileSystem.isDirectory($0.path) }
        try OutputFiles.checkOutsideTrees(
            outputs, trees: trees.map { ("\($0.path)", "the directory \($0.path), \($0.origin)") },
            reads: "the scenarios copy or load")
        // A new name under `__snapshots__/` beside a feature file is a snapshot a step may read (or --update-snapshots
        // write): refused before its placeholder is written, as any file there.
        let snapshots = Set(featureFiles.map { FileSystem.directory(of: $0) + "/__snapshots__" }).sorted()
        try OutputFiles.checkOutsideTrees(
            outputs, trees: snapshots.filter(FileSystem.isDirectory).map { ($0, "the snapshot directory \($0)") },
            reads: "the snapshot steps read")
    }

    /// How ``found(featurePaths:defines:featureFiles:steps:environment:)`` names what a step reads.
    static let stepNamed = "named at "

    /// Refuses an output that exists and is one of the files found under `found` (walked, links not followed): what
    /// `test` and `check` share, so an output of either never lands on a step, stub, fixture or feature file.
    static func check(_ outputs: [(path: String, origin: String)], found: [(path: String, origin: String, only: Bool)])
        throws(UsageError)
    {
        let existing = outputs.compactMap { output in identity(output.path).map { (output, $0) } }
        guard !existing.isEmpty else { return }
        var budget = walkLimit
        for input in found {
            var files: [String] = []
            try walk(input.path, into: &files, budget: &budget, only: input.only, origin: input.origin)
            for file in files {
                guard let id = identity(file), let (output, _) = existing.first(where: { $0.1 == id }) else { continue }
                throw UsageError(.wouldOverwrite(output: output.origin, input: "\(file) (\(input.origin))"))
            }
        }
    }

    /// A report on the file or pipe the console writes to (`--messages /dev/stdout` with stdout a pipe, `--junit j.xml
    /// 2>j.xml`): its lines and the report's would interleave, or the report's rename drop the console's, and neither
    /// could be read back. `/dev/null` for both is fine.
    static func checkConsole(_ outputs: [(path: String, origin: String)]) throws(UsageError) {
        try OutputFiles.checkConsole(outputs, streams: ["stdout", "stderr"])
    }

    /// The output options in effect, each with how it was named.
    static func outputs(_ options: TestOptions) -> [(path: String, origin: String)] {
        var outputs: [(path: String, origin: String)] = []
        if let path = options.junitPath {
            outputs.append((path, options.junitFromEnvironment ? "XML_OUTPUT_FILE \(path)" : "--junit \(path)"))
        }
        for (path, name) in [(options.reportPath, "--report"), (options.messagesPath, "--messages"), (options.htmlPath, "--html")] {
            if let path { outputs.append((path, "\(name) \(path)")) }
        }
        if let path = options.rerunPath { outputs.append((path, "--write-rerun \(path)")) }
        return outputs
    }

    /// The files the command line names that the run reads.
    static func commandLine(_ options: TestOptions) -> [(path: String, origin: String, rerun: Bool)] {
        var inputs = options.featurePaths.filter(FileSystem.isRegularFile).map { ($0, "the feature file \($0)", false) }
        for named in options.stepFiles + [options.quarantineFile, options.shardTimings].compactMap({ $0 }) {
            inputs.append((named.path, "\(named.spelling) \(named.path)", false))
        }
        if let named = options.rerunFailed { inputs.append((named.path, "\(named.spelling) \(named.path)", true)) }
        if let program = options.scenario.defines["PROGRAM"] { inputs.append((program, "the program -D PROGRAM=\(program)", false)) }
        return inputs
    }

    /// Directories and files found from the feature files and their steps, with why each is read; `only` keeps
    /// the files a feature directory's walk reads (feature, step and snapshot files).
    static func found(
        featurePaths: [String], defines: [String: String], featureFiles: [String], steps named: [NamedStep], environment: [String: String]
    ) -> [(path: String, origin: String, only: Bool)] {
        // A directory operand is walked (discovery walks it too); beside a feature file, only what discovery reads.
        var found = featurePaths.filter(FileSystem.isDirectory).map {
            (path: $0, origin: "under the feature directory \($0)", only: true)
        }
        for file in featureFiles {
            found.append((file, "a feature file of the run", false))
            let name = file.split(separator: "/").last.map(String.init) ?? file
            found.append((FileSystem.directory(of: file) + "/__snapshots__/" + name, "a snapshot of \(file)", false))
        }
        found += UserSteps.files(near: featureFiles).map { ($0, "a step file found beside the feature files", false) }
        let steps = [("the files from ", false), ("the stubs ", false), ("the program ", true)]
        for step in named {
            guard let (prefix, needsSlash) = steps.first(where: { step.text.hasPrefix($0.0 + "\"") }) else { continue }
            let written = String(step.text.dropFirst(prefix.count + 1).prefix { $0 != "\"" })
            // `${HOME}`, `${TMPDIR}`, `${SUT_MOCK_SERVER_CA}`…: the scenario's own, made fresh when it runs (no output is
            // there), unless a `--define` or an earlier step of the scenario set the name.
            let names = StepVariables.names(in: written)
            if names.contains(where: step.runOwned.contains)
                || names.contains(where: { StepVariables.runOwned.contains($0) && defines[$0] == nil && step.variables[$0] == nil })
            {
                continue
            }
            let expanded = StepVariables.substitute(written) { defines[$0] ?? step.variables[$0] ?? environment[$0] ?? "" }
            if needsSlash && !expanded.contains("/") { continue }
            // As the run reads it (ScenarioRun.featurePath), by the same rule: a path led by a `--define` or environment
            // value is that value, relative to the current directory; one led by a value the scenario set is the feature's.
            let outside =
                StepVariables.leadingOutsideValue(
                    written, defined: { defines[$0] != nil }, setByScenario: { step.variables[$0] != nil }) != nil
            let path = expanded.hasPrefix("/") || outside ? expanded : FileSystem.directory(of: step.uri) + "/" + expanded
            found.append((path, "\(stepNamed)\(step.uri):\(step.line)", false))
        }
        return found
    }

    /// Files under `path` (or `path` itself), links not followed into directories, at most `budget` entries in all.
    /// - Throws: a directory below that cannot be listed, or an entry that cannot be looked at (its directory is not
    ///   searchable): an output there could not be told apart from the run's files, so it is never skipped (R9D-2's
    ///   rule, which the feature walk and stub loading follow).
    private static func walk(
        _ path: String, into files: inout [String], budget: inout Int, only: Bool, origin: String, inSnapshots: Bool = false,
        depth: Int = 0
    ) throws(UsageError) {
        guard budget > 0, depth < 64 else { return }
        guard FileSystem.exists(path) || FileSystem.isSymbolicLink(path) else {
            // Gone, or below a file, is nothing there; a directory on the way that may not be searched is not.
            if let failure = FileSystem.statFailure(path), !belowAFile(path) {
                throw unreadable(path, failure.description, origin: origin)
            }
            return
        }
        budget -= 1
        guard FileSystem.isDirectory(path), !FileSystem.isSymbolicLink(path) else {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if !only || inSnapshots || name.hasSuffix(".feature") || name.hasSuffix(".steps.json") { files.append(path) }
            return
        }
        let names: [String]
        switch FileSystem.entries(path) {
        case .success(let listing): names = listing.names
        case .failure(let failure): throw unreadable(path, failure.description, origin: origin)
        }
        for name in names {
            try walk(
                path + "/" + name, into: &files, budget: &budget, only: only, origin: origin,
                inSnapshots: inSnapshots || name == "__snapshots__", depth: depth + 1)
        }
    }

    /// Whether the nearest ancestor of `path` that can be looked at is not a directory (stat says ENOTDIR).
    private static func belowAFile(_ path: String) -> Bool {
        var ancestor = FileSystem.directory(of: path)
        while ancestor != "/" && ancestor != "." {
            if FileSystem.exists(ancestor) { return !FileSystem.isDirectory(ancestor) }
            ancestor = FileSystem.directory(of: ancestor)
        }
        return false
    }

    private static func unreadable(_ path: String, _ reason: String, origin: String) -> UsageError {
        UsageError(
            .unreadablePath(
                path,
                reason: "cannot read it (\(reason)), so no output of the run can be told apart from the files under it (\(origin)); "
                    + "make it and its directory readable (chmod u+rx) or move it out of the tree"))
    }

    private static func identity(_ path: String) -> [UInt64]? { FileSystem.identity(path) }
}
