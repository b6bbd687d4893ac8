import AutomationSupport
import ProcessEngine
import Scenarios

/// The run's outputs, once the files are loaded and before anything runs.
extension TestCommand {
    /// Puts a placeholder at every report asked for (``ScenarioReports/placehold()``: a run killed from now on leaves
    /// "did not finish", never the previous run's verdict), then makes sure `GITHUB_STEP_SUMMARY` can be appended to
    /// (`--format github`): a step summary that cannot be written is exit 74 now, before the scenarios run, not after.
    /// - Returns: nil to go on, or the exit code the run ended with (74; its reports written saying why).
    static func holdOutputs(_ options: TestOptions, environment: [String: String], reports: ScenarioReports) -> Int32? {
        var problem = reports.placehold()
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
