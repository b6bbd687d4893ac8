import AutomationSupport
public import AutomationHost
import MockServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The machine-readable account of one run (`--report FILE`). Written even when the program could not
/// start, timed out or was interrupted.
public struct RunReport: Codable, Sendable {
    public var sutLaunchVersion = SutLaunch.version
    /// The program as given, and the path that was executed (nil when it was not found).
    public var program: String
    public var executablePath: String?
    /// argv as sent, argv[0] included.
    public var argv: [String]
    /// Names of the environment variables sent (values are left out: they may hold secrets).
    public var environmentKeys: [String]
    public var featureFlags: [String: FlagValue]
    public var automationFlags: [String: FlagValue]
    public var flagsIn: String
    public var workingDirectory: String?
    /// True when the program started.
    public var launched = false
    /// sut-launch's own exit code for this run.
    public var exitCode: Int32 = 0
    /// The program's exit code; nil when it did not exit normally.
    public var programExitCode: Int32?
    /// The signal that ended the program, if one did.
    public var signal: Int32?
    public var signalName: String?
    public var timedOut = false
    /// The signal sut-launch received and forwarded (Ctrl-C: SIGINT).
    public var interruptedBy: String?
    public var durationMs: Double = 0
    public var stdoutBytes = 0
    public var stderrBytes = 0
    /// Why the run failed before or around the program (launch failure), if it did.
    public var error: String?
    /// What the mock server saw, when one ran.
    public var mockServer: MockServerReport?

    init(configuration: RunConfiguration, request: LaunchRequest) {
        program = configuration.program
        argv = [configuration.program] + request.arguments
        environmentKeys = request.environment.keys.sorted()
        featureFlags = configuration.featureFlags
        automationFlags = configuration.effectiveAutomationFlags
        flagsIn = configuration.effectiveFlagsIn.rawValue
        workingDirectory = configuration.workingDirectory
    }

    /// The report of a run that ended before anything launched (a usage error, an invalid file).
    init(notLaunched program: String, exitCode: Int32, error: String) {
        self.program = program
        argv = program.isEmpty ? [] : [program]
        environmentKeys = []
        featureFlags = [:]
        automationFlags = [:]
        flagsIn = WireFormat.Channel.both.rawValue
        self.exitCode = exitCode
        self.error = error
    }

    /// Writes the report as pretty-printed JSON.
    /// - Throws: when the file cannot be written.
    /// - Returns: false when the file cannot be written.
    public func write(to path: String) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return false }
        return FileSystem.write(Array(data), to: path)
    }
}

/// The mock server's part of the run report.
public struct MockServerReport: Codable, Sendable {
    public struct Route: Codable, Sendable {
        public var id: String
        public var name: String
        public var source: String
        public var calls: Int
        public var expectationFailure: String?
    }
    public struct Unexpected: Codable, Sendable {
        public var method: String
        public var url: String
        public var nearMiss: String
    }
    public var url: String
    public var totalRequests: Int
    public var unexpectedPolicy: String
    public var routes: [Route]
    public var unexpected: [Unexpected]
    /// What failed the run (unmet expectations; unexpected requests under strict).
    public var failures: [String]

    init(url: String, summary: ServerSummary) {
        self.url = url
        totalRequests = summary.totalRequests
        unexpectedPolicy = summary.policy.rawValue
        routes = summary.routes.map { Route(id: $0.id, name: $0.name, source: $0.source, calls: $0.calls, expectationFailure: $0.expectationFailure) }
        unexpected = summary.unexpected.map { Unexpected(method: $0.method, url: $0.url, nearMiss: $0.nearMiss) }
        failures = summary.failures
    }
}

/// Facts about sut-launch itself.
public enum SutLaunch {
    public static let version = "0.1.0"
}
