package import MockServer

/// What mock server a run, a scenario or `serve` starts: its stubs, where it listens, how strict it is, its
/// limits, admin and journal settings, and where its journal goes. Built once; ``MockServerRun`` starts it.
package struct ServerPlan: Sendable {
    /// What the server answers.
    package let stubs: StubSet
    /// The address it listens on (`--host`).
    package let host: String
    /// Its port (`--port`, default 8080; 0: a free one).
    package let port: UInt16
    /// Unexpected requests fail the run, scenario or test even when the stub files do not say `"unexpected": "fail"`.
    package let strict: Bool
    /// Request size and connection limits.
    package let limits: ServerLimits
    /// Admin API, journal size, secrets in the journal, global response templating.
    package let options: MockServer.Options
    /// Write the journal here when the server stops (`--journal`).
    package let journalPath: String?
    /// Speak HTTPS (`--https`); nil: plain HTTP.
    package let https: HTTPSPlan?
    /// Record what is forwarded to a backend from the start, written when the server finishes; nil: no recording.
    package var record: RecordPlan?
    /// What the program under test may change through the admin API (`--admin-writes`): a run's server is read-only to
    /// it by default; `serve` sets `.open` (admin writes are what it is for).
    package var adminWrites = MockServer.AdminWrites.refuse

    /// A plan for a server answering with `stubs`; the defaults are the command line's.
    package init(
        stubs: StubSet, host: String = "127.0.0.1", port: UInt16 = 8080, strict: Bool = false,
        limits: ServerLimits = ServerLimits(), options: MockServer.Options = MockServer.Options(), journalPath: String? = nil,
        https: HTTPSPlan? = nil
    ) {
        self.stubs = stubs
        self.host = host
        self.port = port
        self.strict = strict
        self.limits = limits
        self.options = options
        self.journalPath = journalPath
        self.https = https
    }
}

/// A recording a run makes: the backend, what is made of its answers, and whether recording nothing is a failure
/// (`--record-from`: the program never reached the server; not `--record-missing`: every request had a stub).
package struct RecordPlan: Sendable {
    package var rule: ProxyRule
    package var spec: RecordSpec
    package var required: Bool
    package init(rule: ProxyRule, spec: RecordSpec, required: Bool) {
        self.rule = rule
        self.spec = spec
        self.required = required
    }
}

/// What every scenario's server of a `test --record-from` (or `--proxy-unmatched`) run does: its options (the backend
/// for what no stub matches, the root recordings go to) and the recording it makes.
package struct ScenarioRecording: Sendable {
    package var serverOptions: MockServer.Options
    package var plan: RecordPlan?
    package init(serverOptions: MockServer.Options, plan: RecordPlan?) {
        self.serverOptions = serverOptions
        self.plan = plan
    }
}
