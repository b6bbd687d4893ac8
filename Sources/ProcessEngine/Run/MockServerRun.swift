package import AutomationSupport
package import MockServer

/// Starting and finishing the mock server of a run, a `serve` or a scenario: one place for the port hint,
/// the journal file and the summary.
package enum MockServerRun {
    /// Starts the server `plan` describes. The one place strictness is decided: with `plan.strict`, unexpected
    /// requests fail the run, scenario or test (as `"unexpected": "fail"` in a stub file does).
    /// - Returns: the running server, or the one-line reason it could not start (with `--port 0` as the hint
    ///   when the port is taken).
    /// - Parameter listener: a socket already listening on the plan's host and port (serve binds before loading
    ///   its stubs); the server owns it from here.
    package static func start(_ plan: ServerPlan, listener: Socket? = nil) -> Result<MockServer, UsageError> {
        // The journal's directory is held from the start (a `serve` journal too): a swap for a link cannot move it.
        OutputFile.pin(plan.journalPath.map { [$0] } ?? [])
        var stubs = plan.stubs
        if plan.strict { stubs.unexpected = .fail }
        var options = plan.options
        options.adminWrites = plan.adminWrites
        if let https = plan.https {
            options.forwardingHosts += https.hosts // the program may reach the server by a certificate's name
            switch https.context() {
            case .success(let context):
                if https.listensWithTLS { options.tls = context }
                if !https.intercept.isEmpty { options.intercept = Interception(hosts: https.intercept, context: context) }
            case .failure(let error):
                listener?.close()
                return .failure(error)
            }
        }
        let server = MockServer(stubs: stubs, host: plan.host, limits: plan.limits, options: options)
        do {
            if let listener { try server.start(listener: listener) } else { try server.start(port: plan.port) }
            if let record = plan.record { _ = server.startRecording(record.rule, spec: record.spec) }
            return .success(server)
        } catch {
            let hint = (error as? Socket.Error)?.isAddressInUse == true ? "; pass --port 0 for a free port" : ""
            return .failure(UsageError("cannot start the mock server on \(plan.host):\(plan.port): \(error)\(hint)"))
        }
    }

    /// Stops the server, writes the plan's journal (mode 0600; secret headers redacted unless the plan keeps
    /// them) and prints the summary unless quiet (failures always).
    /// - Returns: the summary, and whether the journal asked for could not be written (exit 74).
    /// - Parameter settle: how long requests already sent may take to be read and answered (`serve` stopping on a
    ///   signal waits less: it promises to end within a second).
    package static func finish(
        _ server: MockServer, _ plan: ServerPlan, quiet: Bool, settle: Duration = settleTimeout, webhooks: Duration? = nil,
        after what: String = "the program ended", interrupted: () -> Bool = { false }
    ) -> (summary: ServerSummary, journalFailed: Bool) {
        // A request the program sent just before it exited may still be in a socket's buffer: read and answer it
        // before the summary counts (an unexpected one dropped here made a strict run pass).
        var unsettled: String?
        // A control message's sender still waiting for the program's acknowledgement is answered now (503), not cut off.
        server.endControlChannel()
        if !server.settle(timeout: settle) {
            Console.line("warning: mock server: a request was still arriving or being answered \(Runner.format(settle)) after \(what)")
            unsettled =
                "a request was still arriving or being answered \(Runner.format(settle)) after \(what): it and any request behind it on its connection were not judged"
        }
        // No webhook starts from here; those of answers given are waited for until the deadline fixed now (`webhooks`
        // at most); one still in flight then, or one not sent, is a failure.
        // A signal meanwhile ends the wait: a webhook still delayed is then not sent, a failure (never a wait past Ctrl-C).
        server.waitForWebhooks(timeout: webhooks, interrupted: interrupted)
        let recording = plan.record.flatMap { record in server.stopRecording().map { (record, $0) } }
        server.stop()
        var summary = server.summary
        summary.unsettled = unsettled
        if let (record, result) = recording {
            summary.recordingProblems = RecordingReport.report(
                result, record, quiet: quiet, forwardFailures: summary.upstreamFailures.count)
            // A forward still waiting for its backend is in no recording and no count: a loss, as one dropped at the
            // log's limits is (it passed with a warning).
            if unsettled != nil {
                summary.recordingProblems.append(
                    "a request was still arriving or being forwarded \(Runner.format(settle)) after \(what): it is not in the recording; stop once the client has its answers"
                )
            }
        }
        var journalFailed = false
        let secrets = plan.options.journalSecrets
        if let path = plan.journalPath,
            let problem = OutputFile.write(Array(server.journal.json(secrets: secrets).utf8), to: path, mode: 0o600)
        {
            Console.error("--journal \(path): cannot write the journal: \(problem) (exit \(ExitCode.ioError))")
            journalFailed = true
        } else if let path = plan.journalPath {
            Console.warnIfDisplaced("--journal", path)
        }
        let fullList = journalFailed ? nil : plan.journalPath.map { "the journal \($0)" }
        if !quiet || !summary.failures.isEmpty { Console.line(summary.render(fullList: fullList)) }
        return (summary, journalFailed)
    }

    /// How long the end of a run waits for requests already sent to be read and answered.
    package static let settleTimeout: Duration = .seconds(2)

    /// Waits up to `timeout` for the program's acknowledgement of control message `id`, in slices, so a program
    /// that exits ends the wait at once. The reply, or nil (then `process.status` tells whether it exited).
    package static func waitForAcknowledgement(of id: Int, by process: LaunchedProcess, on server: MockServer, timeout: Duration) -> String?
    {
        let end = ContinuousClock.now + timeout
        while true {
            let slice = min(end - .now, .milliseconds(100))
            if let reply = server.waitForControlAcknowledgement(of: id, timeout: max(slice, .zero)) { return reply }
            if ContinuousClock.now >= end || process.status != nil { return nil }
        }
    }
}
