import AutomationSupport
package import MockServer
package import ProcessEngine

/// `--record-from URL --into DIR`, `--proxy-unmatched URL`, `--record-missing`, `--keep-secrets`, `--capture-header NAME`
/// and `--record-insecure`, as runs and `serve` (through `record`) take them: checked together when parsed.
package struct RecordingOptions: Sendable {
    /// Every request no stub matches goes to this backend and is recorded.
    package var recordFrom: UpstreamTarget?
    /// The WireMock root the recording is written to.
    package var into: String?
    /// Requests no stub matches go to this backend (recorded only with `--record-missing`).
    package var proxyUnmatched: UpstreamTarget?
    package var recordMissing = false
    package var keepSecrets = false
    package var insecure = false
    package var capturedHeaders: [String] = []
    /// Names a request to be forwarded may carry in `Host`/`Origin` besides this machine's (`--allow-host`).
    package var allowedHosts: [String] = []

    package init() {}

    static let recordFromSpec = OptionSpec(
        "--record-from", value: "URL", help: "forward what no stub matches to URL and record it into --into DIR", topic: "record")
    static let intoSpec = OptionSpec(
        "--into", value: "DIR", help: "the WireMock root (mappings/, __files/) a recording is written to", topic: "record")
    static let proxyUnmatchedSpec = OptionSpec(
        "--proxy-unmatched", value: "URL", help: "forward what no stub matches to URL (not recorded unless --record-missing)",
        topic: "record")
    static let recordMissingSpec = OptionSpec(
        "--record-missing", help: "record what --proxy-unmatched forwarded into --into DIR", topic: "record")
    static let keepSecretsSpec = OptionSpec(
        "--keep-secrets", help: "keep Authorization, Cookie and Set-Cookie values in recordings (redacted by default)", topic: "record")
    static let captureHeaderSpec = OptionSpec(
        "--capture-header", value: "NAME", help: "match recorded requests on this header too; repeatable", topic: "record")
    static let insecureSpec = OptionSpec(
        "--record-insecure", help: "do not verify an https backend's certificate (SNI is still sent)", topic: "record")

    static let allowHostSpec = OptionSpec(
        "--allow-host", value: "NAME",
        help: "forward requests whose Host is NAME too (*.NAME: one label more); this machine's names always are; repeatable",
        topic: "record")

    /// The options only a recording takes (`serve` refuses them without one).
    static let recordingOnlySpecs = [keepSecretsSpec, insecureSpec, captureHeaderSpec]

    /// `arguments` without the options only a recording takes, and their values in either spelling
    /// (`--capture-header NAME`, `--capture-header=NAME`): what `record` hands `serve`'s parser to read its own address.
    static func withoutRecordingOnly(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.prefix { $0 != "=" }
            if let spec = recordingOnlySpecs.first(where: { $0.long == name }), spec.takesValue || name == argument {
                index += spec.takesValue && name == argument ? 2 : 1
            } else {
                kept.append(argument)
                index += 1
            }
        }
        return kept
    }

    mutating func setBackend(_ value: String, option: String, index: Int, recording: Bool) throws(UsageError) {
        let target: UpstreamTarget
        do { target = try UpstreamTarget(value) } catch {
            throw UsageError(.invalidBackendURL(option, problem: error.message, index: index))
        }
        if recording { recordFrom = target } else { proxyUnmatched = target }
    }

    mutating func addCapturedHeader(_ value: String, spelling: String) throws(UsageError) {
        guard !value.isEmpty, value.utf8.count <= 200, value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) else {
            throw UsageError(
                .invalidPattern(spelling, value: String(value.prefix(80)), problem: "a header name is letters, digits and !#$%&'*+-.^_`|~"))
        }
        // The mock server's own authority, with the run's random port: a recording matching on it never replays.
        guard value.lowercased() != "host" else {
            throw UsageError(
                .invalidPattern(
                    spelling, value: value,
                    problem: "Host names the mock server itself (its port changes every run), so the recording would never replay"))
        }
        guard capturedHeaders.count < 64 else {
            throw UsageError(.invalidPattern(spelling, value: String(value.prefix(80)), problem: "at most 64 headers"))
        }
        capturedHeaders.append(value)
    }

    /// A name requests reach the server by (`host.docker.internal`, `*.dev.test`): a DNS name or an address, no
    /// scheme, port or path. Forwarding refuses any other name but this machine's (``ForwardingPolicy``, DNS rebinding).
    mutating func addAllowedHost(_ value: String, spelling: String) throws(UsageError) {
        let problem: String? =
            value.contains("://")
            ? "a URL: write the host alone, as host.docker.internal"
            : value.contains("/")
                ? "a path: write the host alone, as host.docker.internal"
                : value.contains(":") && !Socket.isIPv6Address(value)
                    ? "a port: write the host alone (any port of it is allowed)"
                    : TLSServerContext.hostProblem(value.replacingOccurrences(of: "_", with: "-")) // `_`: a compose service name
        if let problem {
            throw UsageError(.invalidPattern(spelling, value: String(value.prefix(80)), problem: problem))
        }
        guard allowedHosts.count < 64 else {
            throw UsageError(.invalidPattern(spelling, value: String(value.prefix(80)), problem: "at most 64 names"))
        }
        allowedHosts.append(value.lowercased())
    }

    /// The combinations: one backend; a recording needs its root and a root needs a recording; the rest needs one.
    /// - Parameter serve: name `serve`'s (WireMock's) spellings in the hints, `--proxy-all URL --record-mappings`.
    func check(serve: Bool = false) throws(UsageError) {
        if recordFrom != nil && proxyUnmatched != nil {
            throw UsageError(
                .recordingOptionNeeds("--record-from", needs: "already forwards what no stub matches: leave --proxy-unmatched out"))
        }
        if recordMissing && proxyUnmatched == nil {
            throw UsageError(.recordingOptionNeeds("--record-missing", needs: "records what --proxy-unmatched URL forwards: add it"))
        }
        if isRecording && into == nil {
            throw UsageError(
                .recordingOptionNeeds(
                    recordFrom != nil ? "--record-from" : "--record-missing", needs: "needs --into DIR, where the mappings are written"))
        }
        if into != nil && !isRecording {
            throw UsageError(
                .recordingOptionNeeds(
                    "--into", needs: "is where a recording goes: add --record-from URL (or --proxy-unmatched URL --record-missing)"))
        }
        let recordingOnly = [(keepSecrets, "--keep-secrets"), (!capturedHeaders.isEmpty, "--capture-header")]
        if !isRecording, let (_, name) = recordingOnly.first(where: { $0.0 }) {
            let add = serve ? "--proxy-all URL --record-mappings" : "--record-from URL --into DIR"
            throw UsageError(.recordingOptionNeeds(name, needs: "is for a recording: add \(add)"))
        }
        if insecure && recordFrom == nil && proxyUnmatched == nil {
            throw UsageError(
                .recordingOptionNeeds(
                    "--record-insecure",
                    needs: "is for an https backend: add " + (serve ? "--proxy-all URL" : "--record-from URL or --proxy-unmatched URL"))
            )
        }
    }

    /// A backend that is the mock server's own address (`--port N` and the backend `127.0.0.1:N`, `localhost:N`,
    /// `[::1]:N`) would get every forwarded request back, 1,024 deep, and its own 503 recorded: refused by name.
    /// - Parameter spelling: the option as the user typed it (`record` says `--target`).
    func refuseOwnAddress(host: String?, port: UInt16?, spelling: String? = nil) throws(UsageError) {
        let given = [(recordFrom, "--record-from"), (proxyUnmatched, "--proxy-unmatched")]
        for case (let target?, let name) in given where target.isServer(listeningOn: host ?? "127.0.0.1", port: port ?? 0) {
            throw UsageError(
                .recordingOptionNeeds(
                    spelling ?? name,
                    needs:
                        "\(target) is the mock server's own address (--port \(port ?? 0)): every request would be forwarded back to it; give the real backend's URL"
                ))
        }
    }

    /// `--into` names a directory that can be written, or that can be made: an empty name (which wrote into the
    /// working directory), a file or a link to nothing is refused before anything launches (it was found after the
    /// program ran and the backend was asked, exit 4).
    func checkInto(spelling: String = "--into") throws(UsageError) {
        guard let into else { return }
        guard !into.isEmpty else {
            throw UsageError(
                .recordingOptionNeeds(
                    spelling, needs: "is empty: name the directory the recording is written to, like \(spelling) recordings"))
        }
        do {
            let root = try RootedDirectory(into, create: true)
            // The recording writes below these two: a link (or a file) there would refuse every file only at the stop,
            // after the whole session, so it is refused now, as DIR itself is.
            for place in ["mappings", "__files"] where root.kind(of: place) != nil {
                _ = try root.directory(place, create: false)
            }
        } catch {
            throw UsageError(.cannotWrite(spelling, path: into, problem: "\(error)", index: nil))
        }
    }

    /// The option naming an `https://` backend (`--record-from https://…`), which needs libssl: a static executable
    /// hands such a command to the companion, as it does `--https`.
    var httpsBackend: String? {
        if recordFrom?.scheme == "https" { return "--record-from \(recordFrom!)" }
        if proxyUnmatched?.scheme == "https" { return "--proxy-unmatched \(proxyUnmatched!)" }
        return nil
    }

    /// True when something is recorded.
    package var isRecording: Bool { recordFrom != nil || recordMissing }
    /// Whether a backend is given: then a mock server starts even without a stub.
    package var forwards: Bool { recordFrom != nil || proxyUnmatched != nil }

    /// What a recording makes of its exchanges.
    package var spec: RecordSpec {
        var spec = RecordSpec()
        spec.keepSecrets = keepSecrets
        spec.capturedHeaders = capturedHeaders.map { ($0, false) }
        return spec
    }

    /// The backend recorded from (`--record-from`, or `--proxy-unmatched` with `--record-missing`).
    package var recordedBackend: UpstreamTarget? { recordFrom ?? (recordMissing ? proxyUnmatched : nil) }

    /// The recording a run or `serve` makes from its start; recording nothing fails only `--record-from`.
    package var plan: RecordPlan? {
        recordedBackend.map { RecordPlan(rule: ProxyRule(target: $0), spec: spec, required: recordFrom != nil) }
    }

    /// What every scenario's server does under `test`: forward, record (never a failure to record nothing: many
    /// scenarios call no backend), and where to write.
    package var scenarioRecording: ScenarioRecording? {
        guard recordFrom != nil || proxyUnmatched != nil else { return nil }
        var options = MockServer.Options()
        apply(to: &options)
        let plan = recordedBackend.map { RecordPlan(rule: ProxyRule(target: $0), spec: spec, required: false) }
        return ScenarioRecording(serverOptions: options, plan: plan)
    }

    /// Takes the recording root's lock for this run (``RecordingRootLock``) before anything is served: a second
    /// recording into a root another run records into is a usage error naming that run's pid (r11 R11-10: both exited
    /// 0, the later silently replacing the other's answers). Nothing when nothing is recorded.
    /// - Parameter spelling: the option as the user typed it (`serve` says `--root-dir`).
    func lockInto(spelling: String = "--into") throws(UsageError) {
        guard isRecording, let into else { return }
        if let refusal = RecordingRootLock.take(into) { throw UsageError("\(spelling) \(into.escapingControlCharacters()): \(refusal)") }
    }

    /// The mock server's options with these applied.
    package func apply(to options: inout MockServer.Options) {
        options.proxyUnmatched = proxyUnmatched.map(ProxyRule.init(target:))
        options.recordingRoot = into
        options.upstream.insecure = insecure
        options.forwardingHosts += allowedHosts
    }
}
