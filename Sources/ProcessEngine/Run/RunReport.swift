package import AutomationHost
import AutomationSupport
import MockServer

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The machine-readable account of one run (`--report FILE`). Written even when the program could not
/// start, timed out or was interrupted.
package struct RunReport: Codable, Sendable {
    /// The sut-launch that wrote the report.
    package var sutLaunchVersion = SutLaunch.version
    /// The program as given, and the path that was executed (nil when it was not found).
    package var program: String
    /// The path that was executed; nil when the program was not found.
    package var executablePath: String?
    /// argv as sent, argv[0] included.
    package var argv: [String]
    /// Names of the environment variables sent (values are left out: they may hold secrets).
    package var environmentKeys: [String]
    /// The feature flags sent (`EPHEMERAL_…` / `SUT_EPHEMERAL`).
    package var featureFlags: [String: FlagValue]
    /// The automation flags sent, defaults included (`AUTOMATION_…` / `SUT_AUTOMATION`).
    package var automationFlags: [String: FlagValue]
    /// Where the flags travelled: `args`, `env` or `both` (`both` with no flag of either kind travels as `args`).
    package var flagsIn: String
    /// The directory the program ran in; nil: sut-launch's own.
    package var workingDirectory: String?
    /// True when the program started.
    package var launched = false
    /// sut-launch's own exit code for this run.
    package var exitCode: Int32 = 0
    /// The program's exit code; nil when it did not exit normally.
    package var programExitCode: Int32?
    /// The signal that ended the program, if one did.
    package var signal: Int32?
    /// That signal's name (`SIGTERM`).
    package var signalName: String?
    /// True when `--timeout` ended the program.
    package var timedOut = false
    /// The signal sut-launch received and forwarded (Ctrl-C: SIGINT).
    package var interruptedBy: String?
    /// From launch to exit, in milliseconds.
    package var durationMs: Double = 0
    /// Bytes the program wrote to stdout.
    package var stdoutBytes = 0
    /// Bytes the program wrote to stderr.
    package var stderrBytes = 0
    /// Why the run failed before or around the program (launch failure), if it did.
    package var error: String?
    /// What the mock server saw, when one ran.
    package var mockServer: MockServerReport?
    /// The program's process id, when it started.
    package var pid: Int32?
    /// `--coverage`: the totals, or why there are none.
    package var coverage: CoverageReport?

    init(plan: LaunchPlan, request: LaunchRequest, mockServerURL: String?) {
        program = plan.program
        argv = [plan.program] + request.arguments
        environmentKeys = request.environment.keys.sorted()
        featureFlags = plan.flags.featureFlags
        automationFlags = plan.flags.sentAutomationFlags(mockServerURL: mockServerURL)
        flagsIn = plan.flags.sentChannel(mockServerURL: mockServerURL).rawValue
        workingDirectory = plan.workingDirectory
    }

    /// The report of a run that ended before anything launched (a usage error, an invalid file).
    package init(notLaunched program: String, exitCode: Int32, error: String) {
        self.program = program
        argv = program.isEmpty ? [] : [program]
        environmentKeys = []
        featureFlags = [:]
        automationFlags = [:]
        flagsIn = WireFormat.Channel.both.rawValue
        self.exitCode = exitCode
        self.error = error
    }

    /// Writes the report as pretty-printed JSON with sorted keys.
    /// - Returns: false when the file cannot be written.
    package func write(to path: String) -> Bool { problemWriting(to: path) == nil }

    /// Writes the report as ``write(to:)`` does; why it could not be written, or nil.
    package func problemWriting(to path: String) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "the report cannot be encoded" }
        let problem = OutputFile.write(Array(data), to: path)
        if problem == nil { Console.warnIfDisplaced("--report", path) }
        return problem
    }
}

/// The mock server's part of the run report.
package struct MockServerReport: Codable, Sendable {
    /// One route and its calls.
    package struct Route: Codable, Sendable {
        /// The stub's id (`file:line`).
        package var id: String
        /// Its name (`GET /cities`, or the `name` given).
        package var name: String
        /// Where it was defined.
        package var source: String
        /// Requests it answered.
        package var calls: Int
        /// Why its `expect` does not hold; nil when it holds or there is none.
        package var expectationFailure: String?
        /// Requests it matched whose answer could not be made (not among its calls); nil for none.
        package var unanswered: Int?
        /// True for a mapping the program under test added through the admin API; nil otherwise.
        package var addedByProgram: Bool?
    }
    /// A request no stub matched.
    package struct Unexpected: Codable, Sendable {
        /// Its method.
        package var method: String
        /// Its request-target as sent.
        package var url: String
        /// The nearest stub and what differed.
        package var nearMiss: String
    }
    /// The server's base URL (`http://127.0.0.1:PORT`).
    package var url: String
    /// Requests received in all.
    package var totalRequests: Int
    /// What unexpected requests did: `404` (reported) or `fail`.
    package var unexpectedPolicy: String
    /// Every route, in load order.
    package var routes: [Route]
    /// The unexpected requests described (the first 1,000).
    package var unexpected: [Unexpected]
    /// What failed the run (unmet expectations; unexpected requests under strict).
    package var failures: [String]

    init(url: String, summary: ServerSummary) {
        self.url = url
        totalRequests = summary.totalRequests
        unexpectedPolicy = summary.policy.rawValue
        routes = summary.routes.map {
            Route(
                id: $0.id, name: $0.name, source: $0.source, calls: $0.calls, expectationFailure: $0.expectationFailure,
                unanswered: $0.unanswered > 0 ? $0.unanswered : nil, addedByProgram: $0.addedByProgram ? true : nil)
        }
        unexpected = summary.unexpected.map { Unexpected(method: $0.method, url: $0.url, nearMiss: $0.nearMiss) }
        failures = summary.failures
    }
}

/// Facts about sut-launch itself.
package enum SutLaunch {
    /// This sut-launch's version.
    package static let version = "0.1.0"
}
