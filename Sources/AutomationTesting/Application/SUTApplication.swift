public import AutomationHost
import AutomationSupport
import Coverage
import FoundationLauncher
import MockServer
public import ProcessEngine
import Scenarios

/// A wait or check on a program under test that did not hold. The message carries the program's last
/// output lines, so a failure reads like a screenshot of the terminal.
public struct AutomationError: Error, Sendable, CustomStringConvertible {
    /// What did not hold, with the program's last output lines.
    public var message: String
    /// An error with this message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Named timeouts for waits.
public enum WaitTimeout {
    /// 1 s: for things that should be there at once.
    public static let short: Duration = .seconds(1)
    /// 5 s: the default.
    public static let standard: Duration = .seconds(5)
    /// 30 s: for slow starts and network round trips.
    public static let long: Duration = .seconds(30)
}

/// A program under test, launched with flags from Swift tests.
///
/// ```swift
/// let app = SUTApplication(executable: ".build/debug/MyAppCLI")
/// try app.launch(featureFlags: ["skipPreActiveCheck": true], arguments: ["login"])
/// try await app.waitForOutput(containing: "username:")
/// try app.type("ada\n")
/// #expect(try await app.exitCode == 0)
/// ```
/// A failing exit is a value (``exitCode``), not an error; waits that time out throw ``AutomationError``.
public final class SUTApplication: Sendable {
    /// The program: a path, or a name looked up in PATH.
    public let executable: String
    /// How the program is started.
    public let launcher: LauncherBackend
    /// Where the program's stdin, stdout and stderr go: pipes, or a pseudo-terminal.
    public let terminal: ProgramTerminal
    /// Where every launch writes its raw coverage profile (`LLVM_PROFILE_FILE=DIR/raw/%p-%m.profraw`); nil: none.
    /// ``writeCoverage(threshold:)`` merges them into `DIR/lcov.info` and `DIR/coverage.xml`.
    public let coverageDirectory: String?
    struct State {
        var process: LaunchedProcess?
        var server: MockServer?
        /// The control channel's own loopback endpoint when no mock server was given.
        var controlEndpoint: MockServer?
        /// The trust files of an HTTPS server the program was launched with; removed at the next launch and at the end.
        var trust: TrustFiles?
        var defaultTimeout: Duration
        /// Output kept in memory per stream; past it, bytes spool to an unlinked file (up to 1 GiB), so every
        /// wait and ``output(_:)`` reads the whole stream.
        var captureLimit = 64 << 20
        /// `coverageDirectory`: the session, made at the first launch, and every process launched since.
        var coverage: CoverageSession?
        var launched: [LaunchedProcess] = []
    }
    let state: Locked<State>

    /// - Parameters:
    ///   - executable: a path, or a name looked up in PATH.
    ///   - defaultTimeout: how long waits wait unless told otherwise.
    ///   - launcher: how the program is started (posix_spawn, or Foundation.Process).
    ///   - terminal: `.pseudo(columns:rows:)` runs it on a pseudo-terminal: `isatty` is true, output is one
    ///     stream with the terminal's `\r\n`, ``screenText`` shows what a terminal would, ``press(_:)`` sends keys.
    ///   - coverageDirectory: collect code coverage of every launch there (the program built with
    ///     `-profile-generate -profile-coverage-mapping`); see ``writeCoverage(threshold:)``.
    public init(
        executable: String, defaultTimeout: Duration = WaitTimeout.standard, launcher: LauncherBackend = .spawn,
        terminal: ProgramTerminal = .pipes, coverageDirectory: String? = nil
    ) {
        self.executable = executable
        self.coverageDirectory = coverageDirectory
        self.launcher = launcher
        self.terminal = terminal
        if launcher == .foundation { FoundationLauncher.register() }
        self.state = Locked(State(defaultTimeout: defaultTimeout))
        AutomationScope.current?.register(self)
    }

    /// How long waits wait unless told otherwise.
    public var defaultTimeout: Duration {
        get { state.withLock { $0.defaultTimeout } }
        set { state.withLock { $0.defaultTimeout = newValue } }
    }

    /// Launches the program, with flags marshalled as `sut-launch` does; stdin is a pipe for ``type(_:)``.
    /// In a test with a scope, `HOME`, `TMPDIR` and `XDG_*` point into the scope's ``ScratchSpace`` unless
    /// `environment` sets them: nothing a test launches touches the real home.
    /// - Throws: ``LaunchError`` when it cannot start; ``AutomationError`` when it already runs.
    public func launch(
        featureFlags: [String: FlagValue] = [:], automationFlags: [String: FlagValue] = [:],
        environment: [String: String] = [:], arguments: [String] = [], entryPoint: String? = nil,
        server: MockServer? = nil, flagsIn: WireFormat.Channel? = nil,
        workingDirectory: String? = nil
    ) throws {
        if let running = state.withLock({ $0.process }), running.status == nil {
            throw AutomationError("\(executable) is already running; terminate() it first")
        }
        let isolation = try AutomationScope.current.map { try $0.scratch.environment } ?? [:]
        var variables = isolation.merging(environment) { _, given in given }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        // The control channel: the mock server's, or an endpoint of its own (an empty server, no admin API).
        var controlEndpoint = state.withLock { $0.controlEndpoint }
        if server == nil && controlEndpoint == nil {
            var options = MockServer.Options()
            options.admin = false
            controlEndpoint = try MockServerRun.start(ServerPlan(stubs: StubSet(), port: 0, options: options)).get()
            state.withLock { $0.controlEndpoint = controlEndpoint }
        }
        if let url = (server ?? controlEndpoint)?.controlURL { variables.append((WireFormat.controlURLVariable, url)) }
        variables += try coverageSession()?.environment() ?? []
        let flags = LaunchFlags(featureFlags: featureFlags, automationFlags: automationFlags, entryPoint: entryPoint, flagsIn: flagsIn)
        var terminalSize: TerminalSize?
        if case .pseudo(let columns, let rows) = terminal { terminalSize = TerminalSize(columns: columns, rows: rows) }
        let plan = LaunchPlan(
            program: executable, arguments: arguments, flags: flags, environment: variables,
            callerEnvironment: ProcessEnvironment.current, workingDirectory: workingDirectory,
            standardInput: .pipe, terminal: terminalSize, backend: launcher, forwardsOutput: false,
            captureLimit: memoryCaptureLimit,
            spoolDirectory: FileSystem.temporaryDirectory(ProcessEnvironment.current))
        // An HTTPS server's authority, trusted by the program through its environment, as `sut-launch --https` does.
        state.withLock { $0.trust.take() }?.remove()
        let trust = try server.flatMap { try TrustFiles.write(for: $0, callerEnvironment: ProcessEnvironment.current).get() }
        state.withLock { $0.trust = trust }
        let process = try Launcher.launch(
            plan.request(mockServerURL: server?.url, serverEnvironment: ServerEnvironment(server: server, trust: trust)))
        state.withLock {
            $0.process = process
            $0.server = server
            if $0.coverage != nil { $0.launched.append(process) }
        }
    }

    /// The mock server given at launch, for extensions in this module.
    func launchedServer() throws(AutomationError) -> MockServer {
        guard let server = state.withLock({ $0.server }) else {
            throw AutomationError("no mock server: launch(server:) with a MockServerBuilder().start() to expect requests")
        }
        return server
    }

    /// Output kept in memory per stream before it spools to disk (tests make it small).
    var memoryCaptureLimit: Int {
        get { state.withLock { $0.captureLimit } }
        set { state.withLock { $0.captureLimit = newValue } }
    }

    /// The launched process, for extensions in this module.
    func runningProcess() throws(AutomationError) -> LaunchedProcess { try requireProcess() }

    private func requireProcess() throws(AutomationError) -> LaunchedProcess {
        guard let process = state.withLock({ $0.process }) else {
            throw AutomationError("\(executable) was not launched; call launch() first")
        }
        return process
    }

    /// Everything the program wrote to stdout (or stderr) so far: the whole stream, past the memory capture
    /// too. Past what sut-launch keeps at all (1 GiB on disk, or when the disk refused), the text ends with a
    /// line `[sut-launch: output cut: …]` naming the cap: a check on it cannot pass for having seen a prefix
    /// only if it looks for that line; the waits (``waitForOutput(notContaining:on:for:)``) fail naming it.
    public func output(_ stream: StandardStream = .stdout) -> String {
        guard let process = state.withLock({ $0.process }) else { return "" }
        let (bytes, cut) = process.output.whole(stream)
        return String(decoding: bytes, as: UTF8.self) + (cut.map { "\n[sut-launch: output cut: \($0)]\n" } ?? "")
    }

    /// The last lines of both streams, for failure messages.
    public func lastLines(_ count: Int = 15) -> String {
        state.withLock { $0.process }?.output.tailReport(lines: count) ?? "(the program was not launched)"
    }

    /// Waits until the stream contains `text`.
    /// - Throws: ``AutomationError`` with the last output lines when it does not appear within `timeout`.
    public func waitForOutput(containing text: String, on stream: StandardStream = .stdout, timeout: Duration? = nil) async throws {
        try requireVisible(stream, text: text)
        var matcher = TextMatcher(text)
        _ = try await watch(stream, timeout: timeout, what: "\"\(text)\" on \(stream.rawValue)", &matcher)
    }

    /// Waits until a line of the stream matches the regular expression; returns that line.
    public func waitForOutput(matching pattern: String, on stream: StandardStream = .stdout, timeout: Duration? = nil) async throws
        -> String
    {
        try requireVisible(stream, pattern: pattern)
        let regex: RegexBox
        do { regex = try RegexBox(pattern) } catch { throw AutomationError("invalid regular expression \"\(pattern)\": \(error)") }
        var matcher = LineMatcher(regex)
        _ = try await watch(stream, timeout: timeout, what: "a line of \(stream.rawValue) matching /\(pattern)/", &matcher)
        return matcher.matchedLine ?? ""
    }

    /// Watches the stream for `duration` and throws as soon as `text` appears (a negative wait).
    /// Every byte is read (past the memory capture too); where even the spool stopped, it fails naming the cap.
    public func waitForOutput(notContaining text: String, on stream: StandardStream = .stdout, for duration: Duration) async throws {
        try requireVisible(stream, text: text)
        let process = try requireProcess()
        let watched = await onThread { () -> OutputWatch in
            var matcher = TextMatcher(text)
            var offset = 0
            return process.output.watch(stream, from: &offset, timeout: duration, matcher: &matcher)
        }
        switch watched {
        case .ended, .timedOut: return
        case .matched: throw AutomationError("\"\(text)\" appeared on \(stream.rawValue), which it should not have\n\(lastLines())")
        case .cut(let why):
            throw AutomationError("cannot tell that \"\(text)\" did not appear on \(stream.rawValue): \(why)\n\(lastLines())")
        }
    }

    /// Feeds `matcher` the whole stream as it arrives (memory, then the spool) until it matches; throws when
    /// the time runs out, the program ends first, or the stream was cut at a cap (naming it).
    private func watch<Matcher: OutputMatcher & Sendable>(
        _ stream: StandardStream, timeout: Duration?, what: String,
        _ matcher: inout Matcher
    ) async throws -> Matcher {
        let process = try requireProcess()
        let limit = timeout ?? defaultTimeout
        let start = matcher
        let (watched, final) = await onThread { () -> (OutputWatch, Matcher) in
            var matcher = start
            var offset = 0
            return (process.output.watch(stream, from: &offset, timeout: limit, matcher: &matcher), matcher)
        }
        matcher = final
        switch watched {
        case .matched: return final
        case .cut(let why): throw AutomationError("expected \(what): not found before the cap: \(why)\n\(lastLines())")
        case .ended, .timedOut:
            let reason =
                process.output.isFinished
                ? "the program \(process.waitForExit(timeout: .milliseconds(200)).map(\.description) ?? "closed its output") first"
                : "waited \(Runner.format(limit))"
            throw AutomationError("expected \(what): \(reason)\n\(lastLines())")
        }
    }

    /// Runs blocking work on a thread of its own, not on the test's executor.
    private func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in startThread { continuation.resume(returning: work()) } }
    }

    /// Waits until `found` gives a value for what stdout captured so far (for this module's extensions).
    @discardableResult
    func waitForOutput(satisfying found: @escaping @Sendable (String) -> String?, timeout: Duration?, what: String) async throws -> String {
        try await wait(on: .stdout, timeout: timeout, what: what, found)
    }

    /// For conditions on the text as a whole (the screen): past the memory capture the condition cannot be
    /// judged on the text, so the wait fails naming the cap rather than judge a prefix.
    private func wait(
        on stream: StandardStream, timeout: Duration?, what: String,
        _ found: @escaping @Sendable (String) -> String?
    ) async throws -> String {
        let process = try requireProcess()
        let limit = timeout ?? defaultTimeout
        let application = self
        return try await withCheckedThrowingContinuation { continuation in
            startThread {
                let match = process.output.wait(on: stream, timeout: limit, found)
                if process.output.isCaptureCut(stream) {
                    let cap = ByteSize.text(process.output.captureLimit)
                    return continuation.resume(
                        throwing: AutomationError(
                            "cannot judge \(what): the program wrote more than \(cap) on \(stream.rawValue), and this wait reads the first \(cap)\n\(application.lastLines())"
                        ))
                }
                if let match { return continuation.resume(returning: match) }
                let reason =
                    process.output.isFinished
                    ? "the program \(process.waitForExit(timeout: .milliseconds(200)).map(\.description) ?? "closed its output") first"
                    : "waited \(Runner.format(limit))"
                continuation.resume(throwing: AutomationError("expected \(what): \(reason)\n\(application.lastLines())"))
            }
        }
    }

    /// Writes text to the program's stdin (add "\n" to end a line).
    public func type(_ text: String) throws {
        let process = try requireProcess()
        do {
            try process.writeToStandardInput(Array(text.utf8))
        } catch {
            throw AutomationError("cannot type into \(executable): \(error) (did it exit or close stdin?)\n\(lastLines())")
        }
    }

    /// Closes stdin: the program reads end of file.
    public func closeInput() throws { try requireProcess().closeStandardInput() }

    /// Sends a message over the control channel (the program reads it with `ControlChannel`) without waiting.
    public func send(controlMessage message: String) throws {
        _ = try queue(message)
    }

    /// Sends a message over the control channel; with `waitForAck`, waits that long for the program to
    /// acknowledge it (`ControlChannel.acknowledge(_:reply:)`) and returns its reply ("" when it gave none).
    /// - Throws: ``AutomationError`` naming the message and the last output lines when no acknowledgement came.
    @discardableResult
    public func send(_ message: String, waitForAck timeout: Duration? = nil) async throws -> String? {
        let (endpoint, id) = try queue(message)
        guard let timeout else { return nil }
        let process = try requireProcess()
        let reply: String? = await withCheckedContinuation { continuation in
            startThread {
                continuation.resume(returning: MockServerRun.waitForAcknowledgement(of: id, by: process, on: endpoint, timeout: timeout))
            }
        }
        guard let reply else {
            endpoint.withdrawControlMessage(id) // given up on: never delivered later, a late acknowledgement refused
            let why =
                process.status.map { "the program \($0) first" }
                ?? "waited \(Runner.format(timeout)); does it call ControlChannel.acknowledge?"
            throw AutomationError("control message \"\(message)\" was not acknowledged: \(why)\n\(lastLines())")
        }
        return reply
    }

    /// Asks the program to switch to the entry point `name` (built-in message `entryPoint NAME`) and waits for its acknowledgement.
    @discardableResult
    public func switchEntryPoint(_ name: String, waitForAck timeout: Duration? = nil) async throws -> String {
        try await send(ControlCommand.entryPoint(name).text, waitForAck: timeout ?? defaultTimeout) ?? ""
    }

    /// Sets a flag in the running program (built-in message `flag set`, the top layer of its FlagStack) and waits for its acknowledgement.
    @discardableResult
    public func setFlag(_ key: String, _ value: FlagValue, waitForAck timeout: Duration? = nil) async throws -> String {
        try await send(ControlCommand.setFlag(key, value).text, waitForAck: timeout ?? defaultTimeout) ?? ""
    }

    /// Clears a flag set at run time (built-in message `flag clear`) and waits for the program's acknowledgement.
    @discardableResult
    public func clearFlag(_ key: String, waitForAck timeout: Duration? = nil) async throws -> String {
        try await send(ControlCommand.clearFlag(key).text, waitForAck: timeout ?? defaultTimeout) ?? ""
    }

    private func queue(_ message: String) throws(AutomationError) -> (MockServer, Int) {
        guard let endpoint = state.withLock({ $0.server ?? $0.controlEndpoint }) else {
            throw AutomationError("\(executable) was not launched; call launch() first (the control channel starts with it)")
        }
        guard let id = endpoint.sendControlMessage(message) else {
            throw AutomationError("control message \"\(message)\" not sent: 10,000 messages wait unread; is the program reading them?")
        }
        return (endpoint, id)
    }

    /// Waits for the program to exit (default timeout) and returns its status.
    /// - Throws: ``AutomationError`` when it is still running after `timeout`.
    public func waitForExit(timeout: Duration? = nil) async throws -> ProcessStatus {
        let process = try requireProcess()
        let limit = timeout ?? defaultTimeout
        let status: ProcessStatus? = await withCheckedContinuation { continuation in
            startThread { continuation.resume(returning: process.waitForExit(timeout: limit)) }
        }
        guard let status else {
            throw AutomationError("\(executable) was still running after \(Runner.format(limit))\n\(lastLines())")
        }
        process.finish(grace: .seconds(1))
        return status
    }

    /// The exit code once the program exits (128 + N when signal N ended it); waits the default timeout.
    public var exitCode: Int32 {
        get async throws { try await waitForExit().shellExitCode }
    }

    /// True while the program runs.
    public var isRunning: Bool { state.withLock { $0.process }.map { $0.status == nil } ?? false }

    /// Stops the program and everything it started: SIGTERM to its process group, SIGKILL after `grace`.
    public func terminate(grace: Duration = .seconds(2)) {
        let (process, endpoint, trust) = state.withLock { state in
            defer { state.controlEndpoint = nil }
            return (state.process, state.controlEndpoint, state.trust.take())
        }
        endpoint?.stop()
        defer { trust?.remove() }
        guard let process else { return }
        if process.status == nil { process.stop(signal: 15, grace: grace) }
        process.finish(grace: grace)
    }

    /// The last reference going away stops a program still running, as ``terminate(grace:)`` with its default grace
    /// would, without waiting here (``releaseStops(_:)``).
    deinit { Self.releaseStops(state) }
}
