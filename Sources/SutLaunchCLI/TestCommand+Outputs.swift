import AutomationSupport
import ProcessEngine
import Scenarios

/// The run's outputs, once their paths are checked and before any feature file is parsed.
extension TestCommand {
    /// Puts a placeholder at every report asked for (``ScenarioReports/placehold()``: a run killed from now on leaves
    /// "did not finish", never the previous run's verdict), then makes sure `GITHUB_STEP_SUMMARY` can be appended to
    /// (`--format github`): a step summary that cannot be written is exit 74 now, before the scenarios run, not after.
    /// `rerun`: the `--rerun-failed` file as read before, whose list the placeholder keeps when `--write-rerun` names it.
    /// - Returns: nil to go on, or the exit code the run ended with (74; its reports written saying why).
    static func holdOutputs(_ options: TestOptions, environment: [String: String], reports: ScenarioReports, rerun: [UInt8]?) -> Int32? {
        var problem = reports.placehold(keeping: keptRerunList(options, rerun: rerun))
        if problem == nil, options.github, let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty,
            let unwritable = OutputFile.append([], to: path)
        {
            problem = "GITHUB_STEP_SUMMARY \(path.escapingControlCharacters()): cannot append the summary: \(unwritable)"
        }
        guard let problem else { return nil }
        let message = "\(problem) (exit \(ExitCode.ioError)); no scenario ran"
        GitHubOutput.end() // the block closes first: the error is on stderr, as the same failure at the end is
        Console.error(message)
        let code = reports.write(
            [ScenarioResult.loadError([message], name: "write the run's outputs")], exitCode: ExitCode.ioError, error: message)
        return code == ExitCode.ioError ? code : ExitCode.ioError
    }
}

extension TestCommand {
    /// The locations the `--rerun-failed` file lists when `--write-rerun` names that same file (Cucumber's
    /// `--rerun-failed rr.txt --write-rerun rr.txt`), for its placeholder to keep; nil otherwise, or when the file does
    /// not read as a list of locations (its error is given once the features are loaded) or a path could not be one line.
    static func keptRerunList(_ options: TestOptions, rerun: [UInt8]?) -> [String]? {
        guard let rerun, let read = options.rerunFailed, let written = options.rerunPath, FileSystem.sameFile(read.path, written),
            let entries = try? RerunFile.entries(rerun, file: read.path)
        else { return nil }
        var locations: [String] = []
        for entry in entries {
            guard case .location(let path, let line, _, _, _) = entry, !path.hasPrefix("#"),
                !path.contains(where: { $0 == "\n" || $0 == "\r" })
            else { return nil }
            locations.append("\(path):\(line)")
        }
        return locations
    }
}
