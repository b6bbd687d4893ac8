public import AutomationHost
public import MockServer

/// Everything one run needs: the program, its flags and environment, limits and outputs.
public struct RunConfiguration: Sendable {
    /// The program: a path, or a name looked up in PATH.
    public var program: String
    /// The program's own arguments.
    public var arguments: [String] = []
    /// Feature flags (`--flag`): travel as `EPHEMERAL`.
    public var featureFlags: [String: FlagValue] = [:]
    /// Automation flags (`--automation`): travel as `AUTOMATION`.
    public var automationFlags: [String: FlagValue] = [:]
    /// Variables set on top of the base environment, in order of precedence (later wins).
    public var environment: [(key: String, value: String)] = []
    /// Start from nothing but PATH and HOME instead of the caller's environment.
    public var clearEnvironment = false
    /// The caller's environment (the base unless ``clearEnvironment``).
    public var callerEnvironment: [String: String] = [:]
    /// The program's working directory (`--cwd`); nil: sut-launch's own.
    public var workingDirectory: String?
    /// Stop the program after this long (nil: never).
    public var timeout: Duration?
    /// Time between SIGTERM and SIGKILL when stopping the program.
    public var killGrace: Duration = .seconds(5)
    /// Where flags travel: launch arguments, environment, or both; nil: both when flags were asked for
    /// (see ``flagsAsked``), the environment only otherwise, so argv reaches the program as written.
    public var flagsIn: WireFormat.Channel?
    /// A flags file was given (even one without flags): flags were asked for.
    public var flagsFileGiven = false
    /// Entry point for the program (`AUTOMATION.entryPoint`).
    public var entryPoint: String?
    /// sut-launch prints nothing of its own but errors.
    public var quiet = false
    /// Write the JSON run report here.
    public var reportPath: String?
    /// Where the program's stdin comes from.
    public var standardInput: LaunchRequest.StandardInput = .inherit
    /// The mock server's stubs; nil: no mock server.
    public var stubs: StubSet?
    /// Fail the run on unexpected requests even when the stub files do not say `"unexpected": "fail"`.
    public var strict = false
    /// The mock server's address and port (0: a free port).
    public var mockHost = "127.0.0.1"
    /// Its port (`--port`, default 8080; 0: a free one).
    public var mockPort: UInt16 = 8080
    /// Write the mock server's journal here.
    public var journalPath: String?
    /// Requests the journal keeps (`--journal-limit`; the oldest go first).
    public var journalLimit = 10_000
    /// Keep secret header values in the journal (`--journal-secrets`).
    public var journalSecrets = false
    /// Serve the mock server's admin API (`--no-admin` turns it off).
    public var admin = true
    /// Template every WireMock mapping's response (`--global-response-templating`).
    public var globalResponseTemplating = false

    /// The mock server's admin and journal settings.
    public var serverOptions: MockServer.Options {
        var options = MockServer.Options()
        options.journalLimit = journalLimit
        options.journalSecrets = journalSecrets
        options.admin = admin
        options.globalResponseTemplating = globalResponseTemplating
        return options
    }
    /// How the program is started.
    public var launcher: LauncherBackend = .posixSpawn
    /// Set once the mock server listens: its base URL, passed to the program.
    public var mockServerURL: String?

    /// A run of `program` with `arguments` and nothing else set.
    public init(program: String, arguments: [String] = []) {
        self.program = program
        self.arguments = arguments
    }

    /// The automation flags as sent: the given ones plus `entryPoint`.
    public var effectiveAutomationFlags: [String: FlagValue] {
        var flags = automationFlags
        if let entryPoint { flags[WireFormat.entryPointKey] = .string(entryPoint) }
        if let mockServerURL, flags[WireFormat.mockServerURLKey] == nil { flags[WireFormat.mockServerURLKey] = .string(mockServerURL) }
        return flags
    }

    /// True when a feature flag, automation flag, flags file or entry point was given.
    public var flagsAsked: Bool {
        flagsFileGiven || !featureFlags.isEmpty || !automationFlags.isEmpty || entryPoint != nil
    }

    /// Where flags travel in this run: ``flagsIn``, or the automatic choice.
    public var effectiveFlagsIn: WireFormat.Channel {
        flagsIn ?? (flagsAsked ? .both : .env)
    }

    /// argv after argv[0], as the program receives it.
    public var launchArguments: [String] {
        guard effectiveFlagsIn != .env else { return arguments }
        return WireFormat.launchArguments(ephemeral: featureFlags, automation: effectiveAutomationFlags) + arguments
    }

    /// The program's complete environment.
    public var launchEnvironment: [String: String] {
        var result: [String: String] = [:]
        if clearEnvironment {
            for key in ["PATH", "HOME"] { result[key] = callerEnvironment[key] }
        } else {
            result = callerEnvironment
        }
        for (key, value) in environment { result[key] = value }
        if let mockServerURL {
            result[WireFormat.mockServerURLVariable] = mockServerURL
            // CI machines often set http_proxy: keep mock-server traffic off the proxy.
            for key in ["NO_PROXY", "no_proxy"] {
                let existing = result[key].map { $0.split(separator: ",").map(String.init) } ?? []
                let missing = ["127.0.0.1", "localhost"].filter { !existing.contains($0) }
                result[key] = (existing + missing).joined(separator: ",")
            }
        }
        if effectiveFlagsIn == .args {
            result[WireFormat.underTestVariable] = "1"
        } else {
            for (key, value) in WireFormat.environment(ephemeral: featureFlags, automation: effectiveAutomationFlags) {
                result[key] = value
            }
        }
        return result
    }

    /// The launch request for this configuration: argv and environment marshalled once.
    /// - Parameters:
    ///   - forwardsOutput: write the program's output through to ours (the CLI), or only record it (tests).
    ///   - captureLimit: bytes of each stream kept for waits and assertions.
    public func launchRequest(forwardsOutput: Bool = true, captureLimit: Int = 0) -> LaunchRequest {
        var request = LaunchRequest(executable: program, arguments: launchArguments, environment: launchEnvironment,
                                    workingDirectory: workingDirectory, standardInput: standardInput,
                                    forwardsOutput: forwardsOutput, captureLimit: captureLimit)
        request.backend = launcher
        return request
    }
}
