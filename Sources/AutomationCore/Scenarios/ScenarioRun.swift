import AutomationHost
import MockServer

/// Why a step did not pass: an assertion that failed, or something that kept the scenario from running.
public struct StepFailure: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// An expectation did not hold (JUnit `<failure>`).
        case failure
        /// The scenario could not run: undefined step, program not found (JUnit `<error>`).
        case error
    }
    public var kind: Kind
    public var message: String
    public init(_ message: String, kind: Kind = .failure) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}

/// The state of one scenario while it runs: what the Given steps set up, the program, the mock server.
final class ScenarioRun {
    let pickle: Pickle
    let options: ScenarioOptions
    let featureDirectory: String
    let workDirectory: String
    let deadline: ContinuousClock.Instant
    /// The scenario's time limit (`--scenario-timeout`, or its `@timeout=` tag).
    let timeout: Duration

    var program: String?
    var featureFlags: [String: FlagValue] = [:]
    var automationFlags: [String: FlagValue] = [:]
    var environment: [(key: String, value: String)] = []
    var entryPoint: String?
    var flagsIn: WireFormat.Channel?
    var stubs = StubSet()
    var hasStubs = false
    /// Unexpected requests fail the scenario (DESIGN "Strictness": strict where a test is the caller);
    /// `@lenient` or `Given unexpected requests are allowed` opt out.
    var strict: Bool
    var server: StubServer?
    var process: LaunchedProcess?
    var trail: [String] = []

    init(pickle: Pickle, options: ScenarioOptions, workDirectory: String, timeout: Duration) {
        self.pickle = pickle
        self.options = options
        self.featureDirectory = FileSystem.directory(of: pickle.uri)
        self.workDirectory = workDirectory
        self.deadline = .now + timeout
        self.timeout = timeout
        self.strict = !pickle.tags.contains("@lenient")
        self.program = options.defines["PROGRAM"]
        self.flagsIn = options.flagsIn
    }

    /// How long a waiting step may wait: the step timeout, cut by the scenario's deadline.
    var waitLimit: Duration {
        let remaining = deadline - .now
        return remaining < options.stepTimeout ? max(remaining, .zero) : options.stepTimeout
    }

    /// How long a wait that just ended waited, for messages: "2s", or "the scenario's 1s timeout" when the
    /// scenario's deadline cut it short.
    var waitDescription: String {
        if deadline - .now < .milliseconds(20) { return "the scenario's \(Runner.format(timeout)) timeout" }
        return Runner.format(options.stepTimeout)
    }

    /// `${NAME}` replaced from `--define` and the environment.
    func expand(_ text: String) -> String {
        guard text.contains("${") else { return text }
        var output = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
            output += rest[..<open.lowerBound]
            let name = String(rest[open.upperBound..<close])
            output += options.defines[name] ?? options.environment[name] ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }

    /// A path from a feature file: relative to the feature file's directory.
    func featurePath(_ path: String) -> String {
        let expanded = expand(path)
        return expanded.hasPrefix("/") ? expanded : featureDirectory + "/" + expanded
    }

    // MARK: Program

    func launch(arguments: [String]) throws(StepFailure) {
        if let process, process.status == nil { throw StepFailure("the program is already running; launch once per scenario") }
        guard let program else {
            throw StepFailure("no program to launch: add Given the program \"path\" (or pass --define PROGRAM=path)", kind: .error)
        }
        var configuration = RunConfiguration(program: program, arguments: arguments)
        configuration.featureFlags = featureFlags
        configuration.automationFlags = automationFlags
        configuration.entryPoint = entryPoint
        configuration.environment = environment
        configuration.callerEnvironment = options.environment
        if hasStubs {
            let server = StubServer(stubs: stubs)
            do {
                try server.start(port: 0)
            } catch {
                throw StepFailure("cannot start the mock server: \(error)", kind: .error)
            }
            self.server = server
            configuration.mockServerURL = server.baseURL
        }
        configuration.workingDirectory = workDirectory
        configuration.flagsIn = flagsIn
        configuration.standardInput = .pipe
        let request = configuration.launchRequest(forwardsOutput: false, captureLimit: 16 << 20)
        do {
            let launched = try Launcher.launch(request)
            process = launched
            ScenarioRunner.live.withLock { $0[launched.pid] = launched }
        } catch {
            throw StepFailure(error.message, kind: .error)
        }
    }

    func requireProcess() throws(StepFailure) -> LaunchedProcess {
        guard let process else { throw StepFailure("no program was launched; add When I launch the program", kind: .error) }
        return process
    }

    func requireServer() throws(StepFailure) -> StubServer {
        guard let server else {
            throw StepFailure("no mock server runs: add Given the stubs \"file\" or Given the route \"GET /path\" answers 200 before launching", kind: .error)
        }
        return server
    }

    /// Waits until `condition` holds on the program's output (or the program ended and it still does not).
    func waitForOutput(_ condition: @escaping @Sendable (String) -> Bool, on stream: StandardStream) throws(StepFailure) -> Bool {
        try requireProcess().output.wait(on: stream, timeout: waitLimit) { condition($0) ? true : nil } ?? false
    }

    /// The last lines of both streams, for failure messages.
    func outputTail(lines: Int = 20) -> String {
        process?.output.tailReport(lines: lines) ?? "(no program was launched)"
    }

    /// Stops what the scenario started; returns the mock server's failures (unmet expectations, strict unexpected).
    func tearDown() -> [String] {
        if let process {
            if process.status == nil { process.stop(signal: SignalNumber.terminate, grace: options.killGrace) }
            process.finish(grace: options.killGrace)
            _ = ScenarioRunner.live.withLock { $0.removeValue(forKey: process.pid) }
        }
        guard let server else { return [] }
        server.stop()
        var summary = server.summary
        if strict { summary.policy = .fail }
        return summary.failures
    }

    var unexpectedRequests: [String] {
        server?.summary.unexpected.map(\.description) ?? []
    }
}
