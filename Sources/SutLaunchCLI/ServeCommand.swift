import AutomationSupport
import MockServer
import ProcessEngine
import Scenarios

/// `sut-launch serve [options] STUBS...`: the mock server alone, until Ctrl-C; its URL on the first line.
package enum ServeCommand {
    /// The text of `sut-launch serve --help`.
    package static var help: String {
        "USAGE:\n  sut-launch serve [options] [STUBS...]\n\nRuns the mock server until Ctrl-C (or SIGTERM); prints its URL first. Without stubs it starts empty,\nfor clients that add mappings through /__admin. WireMock's command line is read too (--root-dir DIR,\n--bind-address, --max-request-journal-entries, ...; an option with no effect here is named in one notice).\n\nOPTIONS:\n"
            + ServeOption.helpLines
    }

    /// What comes before the listener, once the companion is not needed: the recording root's lock (one recording per
    /// root at a time, taken before anything is served; the companion's `exec` drops it), WireMock's root, the notices.
    private static func prepare(_ options: inout ServeOptions, recordingRequired: Bool) throws {
        try options.recording.lockInto(spelling: recordingRequired ? "--into" : "--root-dir")
        try options.placeWireMockRoot()
        try options.announceAndPermit()
        DescriptorLimit.raiseToHard() // as servers do: a low inherited `ulimit -n` would cap connections (no program here)
    }

    /// Runs the server; returns the exit code. Signals must be blocked in this process already.
    /// - Parameter recordingRequired: a recording that records nothing fails (`record`: the client never came).
    package static func run(_ arguments: [String], recordingRequired: Bool = false) throws -> Int32 {
        var options = try ServeOptions.parseForCommand(arguments)
        if options.help {
            Console.out(help)
            return 0
        }
        // A static executable cannot load libssl: HTTPS, interception and an https backend run in the companion.
        let needsTLS = options.https.needsTLS ? (options.https.enabled ? "--https" : "--intercept") : options.recording.httpsBackend
        if let option = needsTLS, TLSServerContext.needsDynamicExecutable {
            return SutLaunchCommand.runCompanion(for: option, arguments: ["serve"] + arguments, report: nil)
        }
        try prepare(&options, recordingRequired: recordingRequired)
        // Listening before the stubs load (thousands take milliseconds): a client that connects meanwhile waits
        // for its answer instead of retrying. A bad option was refused by the parse, a missing or bad stub file is
        // reported next; a port that cannot be had is reported by the start below, which tries it again.
        var listener = try? Socket.listen(host: options.host, port: options.port) // nil: taken
        defer { listener?.close() }
        // An earlier serve's journal does not stay under its name while this one loads and serves (a serve killed
        // now leaves "did not finish"): written before the stubs load, which for a large set takes seconds, and before
        // a stub path is refused (R9C-4: a usage error left the earlier journal whole).
        if let path = options.journalPath, let problem = ReportPlaceholder.write([("--journal", path, .json)]) {
            Console.error("\(problem) (exit \(ExitCode.ioError)); the server was not started")
            return ExitCode.ioError
        }
        // No stub files: an empty server, driven through its admin API (as WireMock clients do).
        try checkStubPaths(options.stubPaths)
        // A static executable cannot load libxml2: stubs with XML matchers run in the companion (the listener closes).
        guard let stubs = try stubs(options) else {
            listener?.close()
            listener = nil
            return SutLaunchCommand.runCompanion(for: SutLaunchCommand.xmlMatchers, arguments: ["serve"] + arguments, report: nil)
        }
        let quiet = options.quiet
        let server: MockServer
        let early = listener
        listener = nil // the server owns it from here
        var plan = ServerPlan(
            stubs: stubs, host: options.host, port: options.port, strict: options.strict, options: options.server,
            journalPath: options.journalPath, https: try options.https.plan(serverHost: options.host, readFile: RunCommand.readTextFile))
        plan.record = options.recording.plan
        plan.adminWrites = .open // clients set a standalone server up through /__admin: that is its purpose
        if recordingRequired { plan.record?.required = true }
        switch MockServerRun.start(plan, listener: early) {
        case .success(let started): server = started
        case .failure(let error):
            Console.error(error.message)
            return ExitCode.cannotLaunch
        }
        if !quiet { logRequests(on: server) }
        // A minted authority's files, for the clients the user points at this server; removed when serve ends.
        var trust: TrustFiles?
        if let authority = server.authorityPEM {
            switch TrustFiles.write(authorityPEM: authority, callerEnvironment: ProcessEnvironment.current) {
            case .success(let files): trust = files
            case .failure(let error):
                server.stop()
                Console.error(error.message)
                return ExitCode.cannotLaunch
            }
        }
        defer { trust?.remove() }
        if let failed = announce(server, trust: trust) { return failed }
        if !quiet {
            Console.line(
                "serving \(stubs.count) route\(stubs.count == 1 ? "" : "s") from \(stubs.files.count) file\(stubs.files.count == 1 ? "" : "s"); Ctrl-C stops"
            )
        }
        // POST /__admin/shutdown ends serve as Ctrl-C does: the journal is written, the summary decides the code.
        server.onShutdown { SignalForwarder.raiseTermination() }
        _ = SignalForwarder.waitForTerminationSignal()
        // The journal and the summary, to a reader that never reads, get the launcher's default kill grace, then give up.
        StandardStreams.limitWrites(within: .seconds(5))
        server.stopSendingWebhooks() // stopping begins: a webhook calling this server cannot keep it alive
        let (summary, journalFailed) = MockServerRun.finish(
            server, plan, quiet: quiet, settle: .milliseconds(500), webhooks: .milliseconds(400), after: "the stop")
        if journalFailed { return ExitCode.ioError }
        return summary.failures.isEmpty ? 0 : ExitCode.serverChecksFailed
    }

    /// The URL line on stdout (what a script reads), then the proxy and trust lines on stderr; exit 74 when the URL line
    /// could not be written (the server is stopped).
    private static func announce(_ server: MockServer, trust: TrustFiles?) -> Int32? {
        // The URL line is what a script reads to find a server on --port 0: lost, nobody can find this server, so serve
        // ends at once naming it (R4a-21: it served on silently until stopped, and said so only then).
        if let lost = writeURLLine(server.baseURL) {
            server.stop()
            Console.error(
                "cannot write the server's URL line to standard output (\(lost)); nobody could find this server, so serve stops (exit \(ExitCode.ioError))"
            )
            return ExitCode.ioError
        }
        if let proxy = server.proxyURL {
            Console.line("proxy for \(server.interceptedHosts.joined(separator: ", ")): \(proxy) (HTTPS_PROXY, HTTP_PROXY)")
        }
        if let trust {
            // Paths under the caller's TMPDIR: a line break in it must not start a line of ours.
            Console.line("certificate authority: \(trust.authority.escapingControlCharacters()) (SUT_MOCK_SERVER_CA; NODE_EXTRA_CA_CERTS)")
            Console.line(
                "with the system's: \(trust.bundle.escapingControlCharacters()) (SSL_CERT_FILE, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT)"
            )
        }
        return nil
    }

    /// Writes `url` and a newline to stdout; nil when written, else why not.
    private static func writeURLLine(_ url: String) -> String? {
        let bytes = Array((url + "\n").utf8)
        switch bytes.withUnsafeBytes({ StandardStreams.write($0, to: 1) }) {
        case .written: return nil
        case .readerGone: return "its reader went away"
        case .stalled: return "its reader did not read"
        case .failed(let error): return StandardStreams.failure ?? "errno \(error)"
        }
    }

    /// One line per request on stderr: what it got and from which mapping (forwarded: from the backend).
    private static func logRequests(on server: MockServer) {
        server.onRequest { entry in
            // A mapping's name is the user's text: a line break in it made a second, forged log line.
            let label =
                entry.stubName.map { " (\($0.escapingControlCharacters()))" } ?? (entry.nearMiss == nil ? " (forwarded)" : " (unexpected)")
            Console.line("\(entry.request.method) \(entry.request.target) → \(entry.fault ?? String(entry.status))\(label)")
        }
    }

    /// The stubs serve loads; nil when they use XML and this static executable must hand the command to the companion.
    private static func stubs(_ options: ServeOptions) throws -> StubSet? {
        do {
            let stubs =
                options.stubPaths.isEmpty
                ? StubSet()
                : try RunCommand.loadStubs(
                    options.stubPaths, lenient: options.lenientStubs, templating: options.server.globalResponseTemplating,
                    allowEmptyRoots: true)
            return StubLoader.xmlNeedsDynamicExecutable ? nil : stubs
        } catch {
            guard StubLoader.xmlNeedsDynamicExecutable else { throw error }
            return nil
        }
    }

    /// Each stub path exists and is a file or a directory: a FIFO or a device is exit 2 naming it, as for a run.
    private static func checkStubPaths(_ paths: [String]) throws(UsageError) {
        for path in paths where !FileSystem.exists(path) { throw UsageError(.noSuchPath(path, kind: "stub file or directory")) }
        for path in paths {
            if let kind = FileSystem.specialKind(path) { throw UsageError(.cannotRead("stub file", path: path, reason: kind)) }
        }
    }
}
