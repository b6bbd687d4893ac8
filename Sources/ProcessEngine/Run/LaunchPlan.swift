import AutomationHost
import AutomationSupport
import MockServer

/// What to launch and how: the program, its arguments and flags, its environment, where it runs, its stdin or
/// terminal, its time limits, the launcher backend and what is kept of its output. Built once; the mock
/// server's URL (known only once the server listens) is an input of ``request(mockServerURL:)``, never set here.
package struct LaunchPlan: Sendable {
    /// The program: a path, or a name looked up in PATH.
    package let program: String
    /// The program's own arguments.
    package let arguments: [String]
    /// Its flags and where they travel.
    package let flags: LaunchFlags
    /// Variables set on top of the base environment, in order of precedence (later wins).
    package let environment: [(key: String, value: String)]
    /// Start from nothing but PATH and HOME of ``callerEnvironment`` instead of all of it.
    package let clearEnvironment: Bool
    /// The caller's environment (the base unless ``clearEnvironment``).
    package let callerEnvironment: [String: String]
    /// The program's working directory (`--cwd`); nil: sut-launch's own.
    package let workingDirectory: String?
    /// Where the program's stdin comes from (ignored on a terminal).
    package let standardInput: LaunchRequest.StandardInput
    /// Run the program on a pseudo-terminal of this size; nil: pipes.
    package let terminal: TerminalSize?
    /// Stop the program after this long (nil: never).
    package let timeout: Duration?
    /// Time between SIGTERM and SIGKILL when stopping the program.
    package let killGrace: Duration
    /// How the program is started.
    package let backend: LauncherBackend
    /// Write the program's output through to ours (the CLI), or only record it (tests, scenarios).
    package let forwardsOutput: Bool
    /// Bytes of each stream kept in memory for waits and assertions.
    package let captureLimit: Int
    /// Where bytes past ``captureLimit`` spool; nil: nowhere.
    package let spoolDirectory: String?

    /// A plan for `program`; the defaults are the command line's (the caller's environment is empty unless given).
    package init(
        program: String, arguments: [String] = [], flags: LaunchFlags = LaunchFlags(),
        environment: [(key: String, value: String)] = [], clearEnvironment: Bool = false,
        callerEnvironment: [String: String] = [:], workingDirectory: String? = nil,
        standardInput: LaunchRequest.StandardInput = .inherit, terminal: TerminalSize? = nil,
        timeout: Duration? = nil, killGrace: Duration = .seconds(5), backend: LauncherBackend = .spawn,
        forwardsOutput: Bool = true, captureLimit: Int = 0, spoolDirectory: String? = nil
    ) {
        self.program = program
        self.arguments = arguments
        self.flags = flags
        self.environment = environment
        self.clearEnvironment = clearEnvironment
        self.callerEnvironment = callerEnvironment
        self.workingDirectory = workingDirectory
        self.standardInput = standardInput
        self.terminal = terminal
        self.timeout = timeout
        self.killGrace = killGrace
        self.backend = backend
        self.forwardsOutput = forwardsOutput
        self.captureLimit = captureLimit
        self.spoolDirectory = spoolDirectory
    }

    /// argv after argv[0], as the program receives it.
    package func launchArguments(mockServerURL: String?) -> [String] {
        flags.arguments(mockServerURL: mockServerURL, programArguments: arguments) + arguments
    }

    /// The program's complete environment: the base less every inherited `SUT_*` variable (``ownedPrefix``), the
    /// server's variables (an HTTPS server's trust files), the variables set (a `--env SSL_CERT_FILE=…` of the user's
    /// wins over ours), the mock server's URL (kept off any proxy), then the flags (``flagVariables``: the run's alone).
    package func launchEnvironment(mockServerURL: String?, serverEnvironment: ServerEnvironment = .none) -> [String: String] {
        var result: [String: String] = [:]
        if clearEnvironment {
            for key in ["PATH", "HOME"] { result[key] = callerEnvironment[key] }
        } else {
            // A caller's SUT_* (an outer run's SUT_CONTROL_URL, a CI job's exported SUT_AUTOMATION) would drive the
            // program from elsewhere: the run owns them all, setting each it needs and passing none it inherited.
            result = callerEnvironment.filter { !$0.key.hasPrefix(Self.ownedPrefix) }
        }
        result.merge(serverEnvironment.variables) { _, server in server }
        for (key, value) in environment { result[key] = value }
        // The run's control channel wins over a `-e`/`--env-file`/flags-file SUT_CONTROL_URL, as every SUT_* the run
        // sets does (R8C-2: the user's replaced it, and the program polled an endpoint no message was sent to).
        if let control = serverEnvironment.variables[WireFormat.controlURLVariable] { result[WireFormat.controlURLVariable] = control }
        // Interception's proxy variables are the point of it: one of the user's (an empty https_proxy, another
        // proxy) would send the program around the mock server, half of them ours and half theirs.
        if !serverEnvironment.intercepted.isEmpty {
            for name in ServerEnvironment.proxyVariables + [ServerEnvironment.proxyURLVariable] {
                result[name] = serverEnvironment.variables[name]
            }
        }
        if let mockServerURL {
            result[WireFormat.mockServerURLVariable] = mockServerURL
            // CI machines often set http_proxy: keep mock-server traffic off the proxy.
            let exclusions = Self.proxyExclusions(
                lower: result["no_proxy"], upper: result["NO_PROXY"], serverURL: mockServerURL, intercepted: serverEnvironment.intercepted)
            result["NO_PROXY"] = exclusions
            result["no_proxy"] = exclusions
        }
        // The flag variables say where this run placed the flags: the run's alone (R9C-1: a `-e SUT_FLAGS_IN=env` under
        // `both`, or a `-e SUT_AUTOMATION` under `args`, made the Host library read the run's argv block as the
        // program's own arguments). Those the run does not set for its placement are removed, never passed on.
        for name in Self.flagVariables { result[name] = nil }
        result.merge(flags.environment(mockServerURL: mockServerURL)) { _, flag in flag }
        return result
    }

    /// The variables that carry the flags and their placement: set by the run alone, whatever `-e`, `--env-file` or a
    /// flags file's `env` gave.
    package static let flagVariables = [
        WireFormat.underTestVariable, WireFormat.ephemeralVariable, WireFormat.automationVariable, WireFormat.flagsInVariable,
    ]

    /// The prefix of the variables a run owns: the caller's are never passed on (`-e` and `--env-file` may set them).
    package static let ownedPrefix = "SUT_"

    /// One proxy exclusion list for both spellings (curl reads `no_proxy` first, other clients `NO_PROXY`): the
    /// caller's entries in either, then 127.0.0.1, localhost and the server's own host; `*` (no proxy at all) stays
    /// `*` alone, which is how clients read it. With interception, an entry that would keep an intercepted host off
    /// the proxy (`*`, the host, a domain it is in) is dropped: that request would go to the network instead.
    static func proxyExclusions(lower: String?, upper: String?, serverURL: String, intercepted: [String] = []) -> String {
        var entries: [String] = []
        for list in [lower, upper].compactMap({ $0 }) {
            for entry in list.split(separator: ",") {
                let trimmed = entry.trimmingCharacters(in: " \t")
                if !trimmed.isEmpty && !entries.contains(trimmed) { entries.append(trimmed) }
            }
        }
        entries.removeAll { entry in intercepted.contains { Self.exclusion(entry, covers: $0) } }
        if entries.contains("*") { return "*" }
        // The host of scheme://HOST:PORT, brackets removed from an IPv6 address.
        let authority = serverURL.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? ""
        var host = authority.lastIndex(of: ":").map { String(authority[..<$0]) } ?? authority
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        for needed in ["127.0.0.1", "localhost", host] where !needed.isEmpty && !entries.contains(needed) { entries.append(needed) }
        return entries.joined(separator: ",")
    }

    /// True when the `NO_PROXY` entry `entry` (`*`, `example.com`, `.example.com`, `host:port`) keeps requests to
    /// `host` (an intercepted host: a name, `*.` and a name, an address) off the proxy, as curl and Python read it.
    static func exclusion(_ entry: String, covers host: String) -> Bool {
        if entry == "*" { return true }
        // A CIDR block (10.0.0.0/8: curl and Python's requests read them) may hold any intercepted address.
        if entry.contains("/") { return Socket.isIPv6Address(host) || host.split(separator: ".").allSatisfy { Int($0) != nil } }
        var name = Substring(entry.lowercased())
        if name.hasPrefix("[") {
            name = name.dropFirst().prefix { $0 != "]" }
        } else if name.filter({ $0 == ":" }).count == 1 {
            name = name.prefix { $0 != ":" }
        }
        while name.hasPrefix(".") || name.hasPrefix("*") { name = name.dropFirst() }
        while name.hasSuffix(".") { name = name.dropLast() } // api.example.com. is api.example.com
        guard !name.isEmpty else { return false }
        let host = Interception.normalized(host)
        // *.example.com: any name under example.com; an entry inside that domain, or above it, excludes some.
        if host.hasPrefix("*.") {
            let domain = host.dropFirst(2)
            return domain == name || domain.hasSuffix("." + name) || name.hasSuffix("." + domain)
        }
        return host == name || host.hasSuffix("." + name)
    }

    /// The launcher's input: argv and environment marshalled once, with the mock server's URL when one runs and
    /// the variables it adds (``TrustFiles/environment`` for HTTPS).
    package func request(mockServerURL: String?, serverEnvironment: ServerEnvironment = .none) -> LaunchRequest {
        var request = LaunchRequest(
            executable: program, arguments: launchArguments(mockServerURL: mockServerURL),
            environment: launchEnvironment(mockServerURL: mockServerURL, serverEnvironment: serverEnvironment),
            workingDirectory: workingDirectory, standardInput: standardInput,
            forwardsOutput: forwardsOutput, captureLimit: captureLimit)
        request.backend = backend
        request.terminal = terminal
        request.spoolDirectory = spoolDirectory
        return request
    }
}
