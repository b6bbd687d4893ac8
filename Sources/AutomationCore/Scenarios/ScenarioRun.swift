import AutomationHost
import MockServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

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

    var program: String?
    var featureFlags: [String: FlagValue] = [:]
    var automationFlags: [String: FlagValue] = [:]
    var environment: [(key: String, value: String)] = []
    var entryPoint: String?
    var stubs = StubSet()
    var hasStubs = false
    var strict = false
    var server: StubServer?
    var process: LaunchedProcess?
    var trail: [String] = []

    init(pickle: Pickle, options: ScenarioOptions, workDirectory: String, timeout: Duration) {
        self.pickle = pickle
        self.options = options
        self.featureDirectory = FileSystem.directory(of: pickle.uri)
        self.workDirectory = workDirectory
        self.deadline = .now + timeout
        self.program = options.defines["PROGRAM"]
    }

    /// How long a waiting step may wait: the step timeout, cut by the scenario's deadline.
    var waitLimit: Duration {
        let remaining = deadline - .now
        return remaining < options.stepTimeout ? max(remaining, .zero) : options.stepTimeout
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
        let request = LaunchRequest(
            executable: program, arguments: configuration.launchArguments, environment: configuration.launchEnvironment,
            workingDirectory: workDirectory, standardInput: .pipe, forwardsOutput: false, captureLimit: 16 << 20)
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
        let process = try requireProcess()
        let recorder = process.output
        let text = { String(decoding: recorder.captured(stream), as: UTF8.self) }
        if condition(text()) { return true }
        let changed = DispatchSemaphore(value: 0)
        let token = recorder.addObserver { changed.signal() }
        defer { recorder.removeObserver(token) }
        let end = ContinuousClock.now + waitLimit
        while ContinuousClock.now < end {
            if condition(text()) { return true }
            if recorder.isFinished { return condition(text()) }
            _ = changed.wait(timeout: .now() + min(end - .now, .milliseconds(200)).dispatchInterval)
        }
        return condition(text())
    }

    /// The last lines of both streams, for failure messages.
    func outputTail(lines: Int = 20) -> String {
        guard let process else { return "(no program was launched)" }
        var text = ""
        for stream in StandardStream.allCases {
            let tail = process.output.lastLines(stream, count: lines)
            text += "--- last \(tail.count) line\(tail.count == 1 ? "" : "s") of \(stream.rawValue) ---\n"
            text += tail.map { $0 + "\n" }.joined()
        }
        return text
    }

    /// Stops what the scenario started; returns the mock server's failures (unmet expectations, strict unexpected).
    func tearDown() -> [String] {
        if let process {
            if process.status == nil { process.stop(signal: SIGTERM, grace: options.killGrace) }
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
        server?.summary.unexpected.map { "\($0.method) \($0.url)\n" + $0.nearMiss.split(separator: "\n").dropFirst().map { "  \($0)" }.joined(separator: "\n") } ?? []
    }
}
