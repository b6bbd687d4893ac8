import AutomationSupport
import ProcessEngine
import Scenarios

/// Where a command that stopped before it ran still writes the `--report` it was asked for.
package enum EarlyReport: Sendable, Hashable {
    /// The run form's report: nothing launched.
    case run(path: String, program: String)
    /// `test`'s JSON report: no scenario ran.
    case test(path: String)
    /// `test`'s JUnit report: one error entry saying why no scenario ran (an earlier run's passing JUnit must not stay).
    case junit(path: String)
    /// Each `--report` given, when it was given more than once (a usage error that must not leave them all unwritten).
    indirect case each([EarlyReport])
    /// An output that does not carry the error (the run's `--journal`, `test`'s `--messages` and `--html`): its
    /// placeholder ("did not finish"), so an earlier run's file does not stay whole under its name (R9C-4).
    case placeholder(option: String, path: String)

    /// Writes the report of a command that ended with `exitCode` because of `error`; `interruptedBy` names the signal
    /// that ended it (the run's report says so in whatever phase it came: R9C-9).
    func write(exitCode: Int32, error: String, interruptedBy: String? = nil) {
        switch self {
        case .each(let reports):
            for report in reports { report.write(exitCode: exitCode, error: error, interruptedBy: interruptedBy) }
        case .run(let path, let program):
            var report = RunReport(notLaunched: program, exitCode: exitCode, error: error)
            report.interruptedBy = interruptedBy
            if !report.write(to: path) {
                Console.error("--report \(path): cannot write the report")
            }
        case .test(let path):
            let json = ScenarioJSONReport.render([], totalSeconds: 0, exitCode: exitCode, error: error)
            if let problem = OutputFile.write(Array(json.utf8), to: path) {
                Console.error("--report \(path): cannot write the report: \(problem)")
            }
        case .junit(let path):
            let reports = ScenarioReports()
            reports.configure(junit: path, report: nil)
            reports.write([ScenarioResult.loadError([error], name: "read the command line")], exitCode: exitCode, error: error)
        case .placeholder(let option, let path):
            let format: ReportPlaceholder.Format = option == "--messages" ? .messages : option == "--html" ? .html : .json
            if let problem = ReportPlaceholder.write([(option, path, format)]) { Console.error(problem) }
        }
    }

    /// The reports given, as one: nil for none, `.each` for several.
    static func all(_ reports: [Self?]) -> Self? {
        let given = reports.compactMap { $0 }
        return given.count > 1 ? .each(given) : given.first
    }

    /// The report an early failure may write: `--report` given once, on a file of its own and in a directory
    /// that exists (``OutputFiles``), else none.
    static func checked(_ report: Self?, outputsHold: Bool) -> Self? {
        guard let report, outputsHold else { return nil }
        switch report {
        // A path that is not UTF-8 would be written under its U+FFFD name, another file than the one asked for.
        case .run(let path, _), .test(let path), .junit(let path), .placeholder(_, let path):
            return OutputFile.problem(path) == nil && OriginalBytes.of(path) == nil ? report : nil
        case .each: return report
        }
    }

    /// The reports an early failure writes: each `option` given, checked (`outputsHold`) as if it were the only one.
    /// `--report a.json --report b.json` is a usage error naming both, and each report asked for still says so: none
    /// is left unwritten in silence.
    static func given<Option>(
        _ parsed: ParsedArguments<Option>, _ option: Option, make: (String) -> Self, outputsHold: (ParsedArguments<Option>) -> Bool
    ) -> Self? {
        var reports: [Self] = []
        for given in parsed.values(option) {
            guard let path = given.value else { continue }
            var alone = parsed
            alone.options.removeAll { $0.option == option && $0.index != given.index }
            if let report = checked(make(path), outputsHold: outputsHold(alone)), !reports.contains(report) { reports.append(report) }
        }
        return reports.count > 1 ? .each(reports) : reports.first
    }
}

/// An error that ended a command before it ran (a usage error, an invalid file), with the report to write for it:
/// the command line was parsed once, and what it named travels here.
package struct CommandFailure: Error {
    package var underlying: any Error
    package var report: EarlyReport?

    package init(_ underlying: any Error, report: EarlyReport?) {
        self.underlying = underlying
        self.report = report
    }
}
