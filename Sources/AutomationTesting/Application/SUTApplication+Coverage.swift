import AutomationSupport
import Coverage
import ProcessEngine

extension SUTApplication {
    /// The coverage session of ``coverageDirectory``, made (tools found, directory opened) at the first launch.
    func coverageSession() throws(AutomationError) -> CoverageSession? {
        guard let directory = coverageDirectory else { return nil }
        if let session = state.withLock({ $0.coverage }) { return session }
        do {
            let environment = ProcessEnvironment.current
            let tools = try CoverageTools.locate(explicit: environment["SUT_LLVM_PROFDATA"], environment: environment)
            let session = try CoverageSession(
                directory: directory, tools: tools, runner: CoverageToolLauncher(callerEnvironment: environment))
            state.withLock { $0.coverage = session }
            return session
        } catch {
            throw AutomationError("coverage: \(error.description)")
        }
    }

    /// Merges the raw profiles of every launch so far (each waited for, up to ``defaultTimeout``) and writes
    /// `lcov.info`, `coverage.xml` and `summary.txt` into ``coverageDirectory``.
    /// - Parameter threshold: the line coverage, in percent, below which this throws (after the files are written).
    /// - Returns: the summary line (`coverage: lines 75.0% (6/8), functions …, regions …`).
    /// - Throws: ``AutomationError`` when no coverage directory was given, nothing was launched, no profile could be
    ///   merged (a program not built instrumented, a profile of another LLVM version), or coverage is below `threshold`.
    public func writeCoverage(threshold: Double? = nil) throws -> String {
        guard coverageDirectory != nil else { throw AutomationError("writeCoverage: the application has no coverageDirectory") }
        guard let session = try coverageSession(), !state.withLock({ $0.launched.isEmpty }) else {
            throw AutomationError("writeCoverage: nothing was launched")
        }
        let launched = state.withLock { state -> [LaunchedProcess] in
            defer { state.launched.removeAll() }
            return state.launched
        }
        for process in launched {
            // A profile is written when the program exits: one still running after the default timeout is named.
            var killed: String? = process.waitForExit(timeout: defaultTimeout) == nil ? "still running" : nil
            if case .signaled(let signal)? = process.status { killed = "killed by \(signalName(signal))" }
            session.record(CoverageSession.Launch(label: executable, executable: process.executablePath, pid: process.pid, killed: killed))
        }
        let outcome = session.finish()
        let notes = outcome.notes.map { "\n" + $0 }.joined()
        if let error = outcome.error { throw AutomationError("coverage: \(error)\(notes)") }
        let line = outcome.summaryLine(directory: session.directory) + notes
        if let threshold, let lines = outcome.totals?.lines, lines.count == 0 || lines.percent < threshold {
            throw AutomationError("coverage: line coverage \(lines.text) is below the threshold \(threshold)%\n\(line)")
        }
        return line
    }
}
