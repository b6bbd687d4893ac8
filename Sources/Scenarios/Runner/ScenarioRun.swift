import AutomationHost
import AutomationSupport
import Coverage
import MockServer
import ProcessEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The state of one scenario while it runs: what the Given steps set up, the program, the mock server.
final class ScenarioRun {
    let pickle: Pickle
    let options: ScenarioOptions
    let featureDirectory: String
    /// The scenario's own directory: `work/` (the working directory of its program and commands) and the
    /// isolated `home/`, `tmp/` and `xdg/…` beside it.
    let rootDirectory: String
    let workDirectory: String
    /// The scenario's directory, held open from its creation: every file a step writes goes through it, so no
    /// link a program plants (even in place of `work/` itself) is followed. Nil when it could not be made.
    let scratch: RootedDirectory?
    let deadline: ContinuousClock.Instant
    /// The scenario's time limit (`--scenario-timeout`, or its `@timeout=` tag).
    let timeout: Duration

    var program: String?
    var featureFlags: [String: FlagValue] = [:]
    var automationFlags: [String: FlagValue] = [:]
    /// The line of the step that set each flag ("feature flag \"a\""): a key set twice fails naming both.
    var flagLines: [String: Int] = [:]
    var environment: [(key: String, value: String)] = []
    var entryPoint: String?
    var flagsIn: WireFormat.Channel?
    /// Launch on a pseudo-terminal of this size (`Given the program runs in a terminal`); nil: pipes.
    var terminal: TerminalSize?
    var stubs = StubSet()
    var hasStubs = false
    /// Unexpected requests fail the scenario (DESIGN "Strictness": strict where a test is the caller);
    /// `@lenient` or `Given unexpected requests are allowed` opt out.
    var strict: Bool {
        didSet { server?.setUnexpectedPolicy(strict ? .fail : stubs.unexpected) } // a step after the first launch
    }
    var server: MockServer?
    /// The mock server speaks HTTPS (`test --https`, `Given the mock server speaks HTTPS`); nil: plain HTTP.
    var https: HTTPSPlan?
    /// The HTTPS server's trust files, in a private directory of this scenario's own; removed at teardown.
    var trust: TrustFiles?
    /// The most recent command or launched program: what the `Then` steps look at.
    var process: LaunchedProcess?
    /// Every command and launch, in order, for teardown and failure artefacts.
    var launches: [Launch] = []
    /// A step's own deadline (`… within 5s`), instead of the step timeout.
    var stepTimeoutOverride: Duration?
    /// True while a catalog step whose pattern takes ` within …` runs: only then do messages suggest `within`.
    var stepTakesWithin = false
    var trail: [String] = []
    /// Snapshot names compared so far (a `${NAME}` one is known only now): a second use is refused, as at load.
    var snapshotNames: Set<String> = []
    /// Request counts and absences waiting for the programs to end (``OpenRequestCheck``).
    var openChecks: [OpenRequestCheck] = []
    /// What a passing step did that the reports must say (`snapshot written: PATH`): added to its trail line.
    var stepNote: String?

    /// One command or launch: what ran, where, with what it added to the environment.
    struct Launch {
        var label: String
        var argv: [String]
        var addedEnvironment: [(key: String, value: String)]
        var process: LaunchedProcess
    }

    init(pickle: Pickle, options: ScenarioOptions, rootDirectory: String, timeout: Duration) {
        self.pickle = pickle
        self.options = options
        self.featureDirectory = FileSystem.directory(of: pickle.uri)
        self.rootDirectory = rootDirectory
        self.workDirectory = rootDirectory + "/work"
        self.deadline = .now + timeout
        self.timeout = timeout
        self.strict = !pickle.tags.contains("@lenient")
        self.program = options.defines["PROGRAM"]
        self.flagsIn = options.flagsIn
        self.https = options.https
        // Only a directory ScratchDirectory made (never the /tmp fallback when mkdtemp failed) takes files.
        let scratch = rootDirectory.contains("/sut-scenario-") ? try? RootedDirectory(rootDirectory) : nil
        for directory in ["work"] + Self.isolated.map(\.directory) { _ = try? scratch?.directory(directory) }
        self.scratch = scratch
    }

    /// The scenario's `work/` directory, for writing into (never through a link).
    func work() throws(StepFailure) -> RootedDirectory {
        guard let scratch else {
            throw StepFailure("the scenario has no directory of its own (\(rootDirectory) could not be made)", kind: .error)
        }
        do { return try scratch.directory("work", create: false) } catch { throw StepFailure(error.description, kind: .error) }
    }

    static var isolated: [(variable: String, directory: String)] { ScratchDirectory.isolated }

    /// The isolation variables, for those no step set.
    var isolationEnvironment: [(key: String, value: String)] {
        let set = Set(environment.map(\.key))
        return Self.isolated.filter { !set.contains($0.variable) }.map { ($0.variable, rootDirectory + "/" + $0.directory) }
    }

    /// How long a waiting step may wait: the step timeout (or the step's own `within`), cut by the
    /// scenario's deadline.
    var waitLimit: Duration { waitBudget().limit }

    /// How long a waiting step may wait, and, when the scenario's deadline leaves less than the step asked
    /// for, what cut it ("the scenario's 1s timeout (the step asked for 5s)"): a wait that was cut never passes
    /// for having waited.
    func waitBudget(asked: Duration? = nil) -> (limit: Duration, cut: String?) {
        let remaining = max(deadline - .now, .zero)
        let wanted = asked ?? stepTimeoutOverride ?? defaultWait
        guard remaining < wanted else { return (wanted, nil) }
        let named = scenarioTimeoutName
        return (remaining, String(named.dropLast()) + "; the step asked for \(Runner.format(wanted)))")
    }

    /// How long a wait that just ended waited, for messages: "2s", or "the scenario's 1s timeout" when the
    /// scenario's deadline cut it short.
    var waitDescription: String {
        if deadline - .now < .milliseconds(20) { return scenarioTimeoutName }
        return stepLimitName(stepTimeoutOverride ?? defaultWait)
    }

    /// Runs `body` with `within` (a duration text, or "" for none) as the step's deadline.
    func within<R>(_ text: String, _ body: () throws -> R) throws -> R {
        if !text.isEmpty {
            guard let duration = DurationParser.parse(text) else {
                throw StepFailure("\"\(text)\" is not a duration like 500ms or 2s", kind: .error)
            }
            stepTimeoutOverride = duration
        }
        defer { stepTimeoutOverride = nil }
        return try body()
    }

    /// `${NAME}` replaced (one pass) from `--define`, the scenario's `Given the environment variable` steps, what
    /// its program gets (`SUT_MOCK_SERVER_URL` and the other ``StepVariables/runTime`` names; naming the server's
    /// URL starts the server), and the caller's environment. Undefined names are refused when the file loads.
    func expand(_ text: String) -> String {
        StepVariables.substitute(text) { variable($0) ?? "" }
    }

    /// A JSON doc string with `${NAME}` substituted, as text in its strings and as a JSON value where it stands as one
    /// (``StepVariables/substituteInJSON(_:_:)``).
    func expandJSON(_ text: String) throws(StepFailure) -> String {
        do { return try StepVariables.substituteInJSON(text) { variable($0) ?? "" } } catch let error as StepVariables.JSONValueError {
            throw StepFailure(error.description, kind: .error)
        } catch {
            throw StepFailure("the doc string is not JSON: \(error)", kind: .error)
        }
    }

    /// The value of `${name}` now, or nil.
    func variable(_ name: String) -> String? {
        if let value = options.defines[name] { return value }
        if let value = environment.last(where: { $0.key == name })?.value { return value }
        if StepVariables.runTime.contains(name) || StepVariables.isolated.contains(name) {
            // Naming the server's URL or authority starts the server (an HTTPS one writes its trust files then).
            if [WireFormat.mockServerURLVariable, TrustFiles.authorityVariable, ServerEnvironment.proxyURLVariable].contains(name) {
                // A scenario that names its server has one, even with no route yet (every request is then unexpected):
                // an empty URL would send the program elsewhere.
                hasStubs = true
                _ = try? ensureServer()
            }
            return programEnvironment()[name]
        }
        return options.environment[name]
    }

    /// The environment the scenario's program would get now (flags, server, isolation).
    private func programEnvironment() -> [String: String] {
        plan(program: program ?? "", arguments: [], flags: flags, standardInput: .pipe).launchEnvironment(
            mockServerURL: server?.baseURL, serverEnvironment: ServerEnvironment(server: server, trust: trust))
    }

    /// The flags the Given steps set, for the program's launch.
    private var flags: LaunchFlags {
        LaunchFlags(featureFlags: featureFlags, automationFlags: automationFlags, entryPoint: entryPoint, flagsIn: flagsIn)
    }

    /// A launch in the scenario: its environment (isolation, then what steps set), its `work/` directory, its
    /// terminal when a step asked for one, output recorded (16 MiB in memory, the rest spooled in the scenario).
    func plan(
        program: String, arguments: [String], flags: LaunchFlags = LaunchFlags(),
        standardInput: LaunchRequest.StandardInput
    ) -> LaunchPlan {
        LaunchPlan(
            program: program, arguments: arguments, flags: flags,
            environment: isolationEnvironment + environment + (options.coverage?.environment(scenario: coverageID) ?? []),
            callerEnvironment: options.environment, workingDirectory: workDirectory, standardInput: standardInput,
            terminal: terminal, forwardsOutput: false, captureLimit: 16 << 20, spoolDirectory: rootDirectory)
    }

    /// A path a step names as an input (stubs, a fixture tree, the program): relative to the feature file's
    /// directory, wherever sut-launch runs from. A path that starts with a `--define` or environment value (`${NAME}`)
    /// is that value as given, relative to the current directory, as every option is; a value the feature itself set
    /// (`Given the environment variable`) is the feature's, relative to its directory.
    func featurePath(_ path: String) -> String {
        let expanded = expand(path)
        if expanded.hasPrefix("/") || leadingOutsideValue(path) != nil { return expanded }
        return FileSystem.joined(featureDirectory, expanded)
    }

    /// The name of the `--define` or environment value `path` starts with (`${NAME}`), or nil
    /// (``StepVariables/leadingOutsideValue(_:defined:setByScenario:)``).
    func leadingOutsideValue(_ path: String) -> String? {
        StepVariables.leadingOutsideValue(
            path, defined: { options.defines[$0] != nil }, setByScenario: { name in environment.contains { $0.key == name } })
    }

    /// What `featurePath(path)` was relative to, for a message: "relative to the feature file", or the value's and the
    /// current directory.
    func pathBase(_ path: String) -> String {
        guard let name = leadingOutsideValue(path) else { return "relative to the feature file" }
        let current = FileManager.default.currentDirectoryPath
        return "a path that starts with ${\(name)} is its value, relative to the current directory \(current)"
    }

    /// The program `Given the program` names: a name without `/` is looked up in PATH, as a shell does; a
    /// path is a ``featurePath(_:)``.
    func programPath(_ written: String) -> String {
        let expanded = expand(written)
        return expanded.contains("/") ? featurePath(written) : expanded
    }

    // MARK: Program

    func launch(arguments: [String]) throws(StepFailure) {
        if let running = launches.last(where: { $0.label == "launch" })?.process, running.status == nil {
            throw StepFailure("the program is already running; launch once per scenario")
        }
        guard let program else {
            throw StepFailure("no program to launch: add Given the program \"path\" (or pass --define PROGRAM=path)", kind: .error)
        }
        try start(plan(program: program, arguments: arguments, flags: flags, standardInput: .pipe), label: "launch")
    }

    /// Runs a command line to completion (`When I run`): no shell, words split as a shell would, the
    /// first a PATH name or a path relative to the scenario's directory; stdin is /dev/null.
    func runCommand(_ line: String) throws(StepFailure) {
        let words = try commandWords(line)
        guard let first = words.first else { throw StepFailure("When I run needs a command", kind: .error) }
        let program = first.contains("/") && !first.hasPrefix("/") ? workDirectory + "/" + first : first
        let process = try start(
            plan(program: program, arguments: Array(words.dropFirst()), standardInput: .null), label: "run \(words.joined(separator: " "))")
        let budget = commandBudget()
        guard process.waitForExit(timeout: budget.limit) != nil else {
            process.stop(signal: SignalNumber.terminate, grace: options.killGrace)
            process.finish(grace: options.killGrace)
            throw StepFailure("\(first) was still running after \(describe(budget)) and was stopped")
        }
        process.finish(grace: options.killGrace)
    }

    /// A command line's words: split as written, then `${NAME}` substituted inside each word, as a shell does with
    /// `"${NAME}"`: a value is data, never quotes or word breaks (`-D A="a b"` is one argument, `it's` is fine).
    func commandWords(_ line: String) throws(StepFailure) -> [String] {
        do { return try ShellWords.split(line).map(expand) } catch { throw StepFailure("\(error)", kind: .error) }
    }

    /// Runs a step defined in a step file: its command with the step's values, a doc string (text) or a
    /// table (JSON rows) on stdin, or both as `{"docString": text, "dataTable": rows}`. Exit 0 passes. It does not become what the `Then` steps look at.
    func runUserStep(_ userStep: UserStep, values: [String], step: GherkinDocument.Step) throws(StepFailure) {
        // The values' own ${NAME}s first; then {n} and ${NAME} in each word in one pass (a value holding {2}
        // or ${X} stays as it is).
        let expanded = values.map(expand)
        var argv = userStep.run.map { StepVariables.substitute($0, values: expanded) { self.variable($0) ?? "" } }
        argv[0] = UserSteps.program(argv[0], from: userStep.directory)
        let subject = process
        let process = try start(
            plan(program: argv[0], arguments: Array(argv.dropFirst()), standardInput: .pipe), label: "step \(step.text)")
        self.process = subject
        // Its doc string and table are values like its captures (`${NAME}` is checked at load in them too). A step
        // given both (Gherkin allows it) gets both, as one JSON object: never one of them dropped in silence.
        let text = step.docString.map { expand($0.content) }
        let rows = step.dataTable.map {
            "[" + $0.rows.map { "[" + $0.map { JSONWriter.quoted(expand($0)) }.joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        }
        var input = ""
        switch (text, rows) {
        case (let text?, let rows?): input = "{\"docString\":\(JSONWriter.quoted(text)),\"dataTable\":\(rows)}\n"
        case (let text?, nil): input = text + "\n"
        case (nil, let rows?): input = rows + "\n"
        case (nil, nil): break
        }
        if !input.isEmpty {
            let budget = waitBudget()
            do {
                try process.writeToStandardInput(Array(input.utf8), timeout: budget.limit)
            } catch {
                process.closeStandardInput()
                process.stop(signal: SignalNumber.terminate, grace: options.killGrace)
                process.finish(grace: options.killGrace)
                let why = error == .timedOut ? "it did not read it within \(describe(budget))" : "\(error)"
                throw StepFailure("the step's command \(argv[0]) did not take its input: \(why); it was stopped (\(userStep.source))")
            }
        }
        process.closeStandardInput()
        // A command, as When I run is: bounded by the scenario's time (its input above is a wait: the step timeout).
        let budget = commandBudget()
        guard let status = process.waitForExit(timeout: budget.limit) else {
            process.stop(signal: SignalNumber.terminate, grace: options.killGrace)
            process.finish(grace: options.killGrace)
            throw StepFailure(
                "the step's command \(argv[0]) was still running after \(describe(budget)) and was stopped (\(userStep.source))")
        }
        process.finish(grace: options.killGrace)
        guard status == .exited(0) else {
            throw StepFailure(
                "the step's command \(argv.joined(separator: " ")) \(status) (\(userStep.source))\n" + process.output.tailReport(lines: 20))
        }
    }

    /// Starts a program with the scenario's environment, directory and mock server; it becomes the one
    /// the `Then` steps look at.
    @discardableResult
    func start(_ plan: LaunchPlan, label: String) throws(StepFailure) -> LaunchedProcess {
        let url = try ensureServer()?.baseURL
        let request = plan.request(mockServerURL: url, serverEnvironment: ServerEnvironment(server: server, trust: trust))
        // A name a `Given the environment variable` step set that the run also sets for this launch fails it, naming it:
        // interception's proxies and --coverage's (set after the steps), an HTTPS server's trust files (one step's
        // SSL_CERT_FILE would have won while CURL_CA_BUNDLE kept ours); the proxy exclusions are merged.
        let runSets = ServerEnvironment(server: server, trust: trust).variables
        for (name, value) in environment
        where (request.environment[name] != value || runSets[name] != nil) && !["NO_PROXY", "no_proxy"].contains(name) {
            throw StepFailure(
                "the environment variable \(name) a step set is one sut-launch sets for this launch (interception the proxy variables, "
                    + "--coverage LLVM_PROFILE_FILE and GOCOVERDIR, HTTPS \(TrustFiles.bundleVariables.joined(separator: ", ")) and "
                    + "NODE_EXTRA_CA_CERTS); drop that step (another authority to trust goes in sut-launch's own environment: the "
                    + "bundle holds the files its variables name)", kind: .error)
        }
        do {
            let launched = try Launcher.launch(request)
            process = launched
            launches.append(Launch(label: label, argv: launched.argv, addedEnvironment: plan.environment, process: launched))
            ScenarioRunner.live.withLock { $0[launched.pid] = launched }
            return launched
        } catch {
            throw StepFailure(error.message, kind: .error)
        }
    }

    func requireProcess() throws(StepFailure) -> LaunchedProcess {
        guard let process else {
            throw StepFailure("no program was launched or run; add When I launch the program or When I run \"…\"", kind: .error)
        }
        return process
    }

    /// Feeds `matcher` the most recent program's stream from its first byte, waiting up to `timeout` for more.
    func watch(_ stream: StandardStream, timeout: Duration, _ matcher: inout some OutputMatcher) throws(StepFailure) -> OutputWatch {
        try requireOwnStream(stream)
        var offset = 0
        return try requireProcess().output.watch(stream, from: &offset, timeout: timeout, matcher: &matcher)
    }

    /// Refuses stderr once the program runs in a terminal (found at load too): its stderr is the terminal then.
    func requireOwnStream(_ stream: StandardStream) throws(StepFailure) {
        if stream == .stderr, terminal != nil {
            throw StepFailure(StepCatalog.terminalStderr(since: "Given the program runs in a terminal"), kind: .error)
        }
    }

    /// The terminal as far as it was read, per process (a screen is built once, fed as output arrives).
    private var screenState: (process: ObjectIdentifier, offset: Int, screen: TerminalScreen)?

    /// Feeds the terminal the output that arrived since, until it shows `text` (nil: only catch up).
    func watchScreen(showing text: String?, timeout: Duration) throws(StepFailure) -> OutputWatch {
        let process = try requireProcess()
        guard let terminal else { return .ended }
        var state =
            screenState.flatMap { $0.process == ObjectIdentifier(process) ? $0 : nil }
            ?? (process: ObjectIdentifier(process), offset: 0, screen: TerminalScreen(terminal))
        if let text, state.screen.text.contains(text) { return .matched }
        var matcher = ScreenMatcher(screen: state.screen, text: text)
        let outcome = process.output.watch(.stdout, from: &state.offset, timeout: timeout, matcher: &matcher)
        state.screen = matcher.screen
        screenState = state
        return outcome
    }

    /// What the terminal shows now (launched with `terminal`).
    func screen() -> TerminalScreen? {
        guard terminal != nil, (try? watchScreen(showing: nil, timeout: .zero)) != nil else { return nil }
        return screenState?.screen
    }

    /// The last lines of both streams, for failure messages.
    func outputTail(lines: Int = 20) -> String {
        process?.output.tailReport(lines: lines) ?? "(no program was launched)"
    }
}
