import Coverage
import ProcessEngine

extension ScenarioRun {
    /// The scenario's directory below `DIR/raw/` under `--coverage`.
    var coverageID: String { CoverageSession.scenarioID(uri: pickle.uri, line: pickle.line) }

    /// Records every launch of the scenario with the coverage session, how it ended (a launch killed or stopped
    /// leaves no profile, and is named for it).
    func recordCoverage() {
        guard let session = options.coverage else { return }
        for launch in launches {
            var killed: String?
            if case .signaled(let signal)? = launch.process.status { killed = "killed by \(signalName(signal))" }
            session.record(
                CoverageSession.Launch(
                    label: "\(pickle.location) \(launch.label)", executable: launch.process.executablePath, pid: launch.process.pid,
                    killed: killed, scenario: coverageID))
        }
    }
}
