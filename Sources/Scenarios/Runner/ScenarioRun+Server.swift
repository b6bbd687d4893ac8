import AutomationSupport
import MockServer
import ProcessEngine

/// The scenario's mock server: started at the first launch, with its trust files when it speaks HTTPS, settled and
/// stopped at teardown.
extension ScenarioRun {
    /// The scenario's mock server, started at the first launch when the scenario has stubs. Over HTTPS its
    /// authority's trust files are written in a private directory made for this scenario alone (parallel jobs never
    /// share one), and every program the scenario launches gets them in its environment.
    func ensureServer() throws(StepFailure) -> MockServer? {
        if let server { return server }
        guard hasStubs || options.recording != nil else { return nil }
        let started: MockServer
        var serverOptions = options.recording?.serverOptions ?? MockServer.Options()
        serverOptions.forwardingHosts = options.forwardingHosts
        var plan = ServerPlan(stubs: stubs, port: 0, strict: strict, options: serverOptions, https: https)
        plan.record = options.recording?.plan
        plan.adminWrites = options.adminWrites
        switch MockServerRun.start(plan) {
        case .success(let server): started = server
        case .failure(let error): throw StepFailure(error.message, kind: .error)
        }
        switch TrustFiles.write(for: started, callerEnvironment: options.environment) {
        case .success(let files):
            trust = files
            if let files { ScenarioRunner.liveTrust.withLock { $0[files.directory] = files } }
        case .failure(let error):
            started.stop()
            throw StepFailure(error.message, kind: .error)
        }
        server = started
        return started
    }

    func requireServer() throws(StepFailure) -> MockServer {
        guard let server else {
            throw StepFailure(
                "no mock server runs: add Given the stubs \"file\" or Given the route \"GET /path\" answers 200 before launching",
                kind: .error)
        }
        return server
    }

    /// Stops what the scenario started and removes its trust files; returns the mock server's failures (unmet
    /// expectations, strict unexpected).
    func tearDown() -> [String] {
        releaseProcesses()
        defer {
            if let trust {
                trust.remove()
                _ = ScenarioRunner.liveTrust.withLock { $0.removeValue(forKey: trust.directory) }
            }
        }
        guard let server else { return [] }
        server.settle(timeout: MockServerRun.settleTimeout)
        // Within the scenario's deadline (r11 R11-5: a webhook's 15 s delay held a scenario 15 s under a 2 s timeout, and it
        // passed): those still in their delay then are not sent, and the scenario fails naming its timeout.
        var late: [String] = []
        if !server.waitForWebhooks(timeout: max(deadline - .now, .zero)) {
            late.append("webhooks were still in flight at \(scenarioTimeoutName): not sent")
        }
        let recorded = options.recording?.plan.flatMap { plan in
            server.stopRecording().map { RecordingReport.report($0, plan, quiet: true) }
        }
        server.stop()
        return late + server.summary.failures + (recorded ?? []).map { "recording: \($0)" }
    }

    /// Stops what still runs of the scenario's processes and forgets them all (teardown, and again after the After
    /// hooks, which run once the scenario's own programs have ended).
    func releaseProcesses() {
        for process in launches.map(\.process) {
            if process.status == nil { process.stop(signal: SignalNumber.terminate, grace: options.killGrace) }
            process.finish(grace: options.killGrace)
            _ = ScenarioRunner.live.withLock { $0.removeValue(forKey: process.pid) }
        }
    }

    var unexpectedRequests: [String] {
        guard let server else { return [] }
        settle(server)
        return server.summary.unexpected.map(\.description)
    }

    /// The server, once it has read and answered what the scenario's programs sent, if they have all ended (a
    /// request sent just before a program exited may still sit in a socket); while one runs, as it is.
    func settledServer() throws(StepFailure) -> MockServer {
        let server = try requireServer()
        settle(server)
        return server
    }

    private func settle(_ server: MockServer) {
        if programsEnded { server.settle(timeout: MockServerRun.settleTimeout) }
    }
}
