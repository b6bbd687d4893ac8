/// One `sut-launch` run as the command line asked for it: what to launch, the mock server to start first (if
/// any), and the run's own settings. Built once by the command line; ``Runner/run(_:signals:)`` carries it out.
package struct RunPlan: Sendable {
    /// The program, its flags, environment, limits and outputs.
    package let launch: LaunchPlan
    /// The mock server to start before the program (`--stub`); nil: none.
    package let server: ServerPlan?
    /// The report and what sut-launch prints.
    package let settings: RunSettings

    /// A run of `launch`, after starting `server` when one is given.
    package init(launch: LaunchPlan, server: ServerPlan? = nil, settings: RunSettings = RunSettings()) {
        self.launch = launch
        self.server = server
        self.settings = settings
    }
}

/// What a run does besides launching: its report and its own output.
package struct RunSettings: Sendable {
    /// Write the JSON run report here (`--report`).
    package let reportPath: String?
    /// sut-launch prints nothing of its own but errors (`--quiet`).
    package let quiet: Bool
    /// `--coverage DIR`: merged and exported after the program ends, before the report is written.
    package let coverage: CoveragePlan?

    /// No report, sut-launch's lines printed.
    package init(reportPath: String? = nil, quiet: Bool = false, coverage: CoveragePlan? = nil) {
        self.reportPath = reportPath
        self.quiet = quiet
        self.coverage = coverage
    }
}
