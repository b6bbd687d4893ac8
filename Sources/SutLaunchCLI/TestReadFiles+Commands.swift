import AutomationSupport
import ProcessEngine
import Scenarios

/// The inputs known once the step files are loaded: the programs and scripts their steps and hooks run (an output
/// written over one replaced a step's script with XML), and `--coverage DIR`, whose start-of-run clean-up removes
/// files in DIR: it may not be, hold or sit inside a feature directory, a fixture or any file the run reads.
extension TestReadFiles {
    /// Refuses an output naming a file a step or hook runs, and a `--coverage` directory over the run's inputs.
    static func checkCommands(
        _ options: TestOptions, featureFiles: [String], steps: [NamedStep], commands: [(path: String, origin: String)],
        environment: [String: String]
    ) throws(UsageError) {
        for output in outputs(options) {
            for command in commands where FileSystem.sameFile(command.path, output.path) {
                throw UsageError(.wouldOverwrite(output: output.origin, input: command.origin))
            }
        }
        let found = found(
            featurePaths: options.featurePaths, defines: options.scenario.defines, featureFiles: featureFiles, steps: steps,
            environment: environment)
        try checkArtifacts(
            options,
            inputs: commandLine(options).map { ($0.path, $0.origin) } + commands
                + found.map { ($0.path, $0.origin) })
        guard let coverage = options.coverage.directory else { return }
        // DIR is coverage's: it clears its reports and data as it starts and writes lcov.info, coverage.xml,
        // summary.txt and merged.profdata there at the end (a JUnit at cov/coverage.xml was replaced by Cobertura).
        if let dir = FileSystem.resolvedPath(coverage) {
            for output in outputs(options) {
                guard let path = FileSystem.resolvedPath(output.path), FileSystem.isBelow(path, dir) else { continue }
                throw UsageError(
                    "\(output.origin.escapingControlCharacters()) is inside --coverage \(coverage.escapingControlCharacters()), which "
                        + "coverage clears and writes its own reports into; write the report outside it")
            }
        }
        var inputs = commandLine(options).map { (path: $0.path, origin: $0.origin, tree: false) }
        inputs += commands.map { ($0.path, $0.origin, false) }
        for found in found {
            inputs.append((found.path, found.origin, FileSystem.isDirectory(found.path)))
        }
        // A feature file's directory is where its step files and snapshots are found: DIR may not be it or hold it
        // (a DIR beside the feature files, `cov/` next to `login.feature`, is the usual layout and stays allowed).
        for file in featureFiles {
            inputs.append((FileSystem.directory(of: file), "the directory of the feature file \(file)", false))
        }
        try options.coverage.checkInputs(inputs)
    }

    /// `--artifacts DIR` in a directory the run reads features from: a failed scenario's copy of its directory (its
    /// program's files, a `.feature` or `.steps.json` among them) became part of the next run's suite, hooks included.
    /// The same inside (or holding) any other input the run reads: a fixture directory (`Given the files from`) copied
    /// the last run's artefacts into the next run's scenario, one level deeper each time; a stub directory, a step
    /// file or a script a step runs.
    static func checkArtifacts(_ options: TestOptions, inputs: [(path: String, origin: String)]) throws(UsageError) {
        guard let artifacts = options.artifacts, let dir = FileSystem.resolvedPath(artifacts.path) else { return }
        for operand in options.featurePaths where FileSystem.isDirectory(operand) {
            guard let tree = FileSystem.resolvedPath(operand), dir == tree || FileSystem.isBelow(dir, tree) else {
                continue
            }
            throw UsageError(
                "\(artifacts.spelling) \(artifacts.path.escapingControlCharacters()) is inside \(operand.escapingControlCharacters()), which "
                    + "the run reads features and step files from: the next run would load what failed scenarios left there; "
                    + "give the artefacts a directory outside the features")
        }
        // A directory input is every place its links lead too (a linked `mappings/`: r12 R12-2).
        let places = inputs.flatMap { input in
            FileSystem.isDirectory(input.path) ? OutputFiles.reachedPlaces(input.path).map { ($0, input) } : [(input.path, input)]
        }
        for (place, input) in places {
            guard let path = FileSystem.resolvedPath(place) else { continue }
            let inside = FileSystem.isDirectory(path) && (dir == path || FileSystem.isBelow(dir, path))
            guard inside || FileSystem.isBelow(path, dir) else { continue }
            throw UsageError(
                "\(artifacts.spelling) \(artifacts.path.escapingControlCharacters()) "
                    + (inside ? "is inside" : "holds")
                    + " \(input.path.escapingControlCharacters()) (\(input.origin.escapingControlCharacters())), "
                    + "which the run reads: "
                    + (inside ? "the next run would read what failed scenarios left there" : "artefacts would be written among its inputs")
                    + "; give the artefacts a directory of their own, outside the suite's inputs")
        }
    }

    /// The files the step files' steps and hooks run or name, each with where it is named.
    static func commands(steps: [UserSteps.Entry], hooks: [Hook], defines: [String: String], environment: [String: String]) -> [(
        path: String, origin: String
    )] {
        let variable: (String) -> String? = { defines[$0] ?? environment[$0] }
        var commands: [(path: String, origin: String)] = []
        for case .step(_, let run, let source, let directory) in steps {
            let named = UserSteps.namedFiles(run, directory: directory, variable: variable)
            commands += named.map { ($0, "\($0), run by the step at \(source)") }
        }
        for hook in hooks {
            commands += hook.namedFiles(variable: variable).map { ($0, "\($0), run by the \(hook.title)") }
        }
        return commands
    }
}
