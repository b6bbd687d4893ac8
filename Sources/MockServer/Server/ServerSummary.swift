import AutomationSupport

/// What the mock server saw during a run: calls per route, unexpected requests, unmet expectations.
public struct ServerSummary: Sendable {
    /// One route and how often it was called.
    public struct Route: Sendable {
        /// The stub's id (`file:line`).
        public var id: String
        /// Its name (`GET /cities`, or the `name` given).
        public var name: String
        /// Where it was defined.
        public var source: String
        /// Requests it answered.
        public var calls: Int
        /// Why the route's `expect` does not hold; nil when it holds or there is none.
        public var expectationFailure: String?
        /// HEAD requests this GET route answered: not among its ``calls`` (a HEAD is not the GET a test expects).
        public var headCalls = 0
        /// Requests it matched whose answer could not be made (a template refused, a file unreadable): not among its
        /// ``calls``, nor counted toward its `expect`.
        public var unanswered = 0
        /// A mapping the program under test added through the admin API (`--admin-writes allow` or `trust`).
        public var addedByProgram = false
    }

    /// A request no stub matched, with its near miss.
    public struct UnexpectedRequest: Sendable, CustomStringConvertible {
        /// The request's method.
        public var method: String
        /// The request-target as sent.
        public var url: String
        /// Why it matched nothing: the nearest stub and what differed.
        public var nearMiss: String

        /// `GET /x`, then the nearest stub and what differed, indented: the one rendering of a near miss
        /// for summaries, scenario failures and test issues.
        public var description: String { description(indent: "  ") }

        /// The request, then the near miss with `indent` before each of its lines.
        public func description(indent: String) -> String {
            (["\(method) \(url)"] + nearMiss.split(separator: "\n").dropFirst().map { indent + $0 }).joined(separator: "\n")
        }
    }

    /// Every route, in load order.
    public var routes: [Route]
    /// The unexpected requests described (the first 1,000).
    public var unexpected: [UnexpectedRequest]
    /// Every unexpected request, described or not.
    public var unexpectedTotal: Int
    /// Requests received in all.
    public var totalRequests: Int
    /// Journal entries dropped to stay within its limits (the oldest went first).
    public var journalDropped: Int
    /// What unexpected requests do to the run.
    public var policy: StubSet.UnexpectedPolicy
    /// Webhooks that could not be delivered, or were still being sent at the end: failures whatever the policy.
    public var webhookFailures: [String] = []
    /// Requests forwarded to a real backend (proxying, recording) that got no answer from it: failures whatever the
    /// policy (the program received a 502 or 504 naming why).
    public var upstreamFailures: [String] = []
    /// What a recording asked for and did not get (nothing recorded, a file not written): failures.
    public var recordingProblems: [String] = []
    /// Set when requests were still arriving or being answered as the run ended (its wait for them ran out): what
    /// they and those behind them on their connections were is not known, so a strict run fails on it.
    public var unsettled: String?

    /// A summary from its parts (`unexpectedTotal` defaults to the number described).
    package init(
        routes: [Route], unexpected: [UnexpectedRequest], unexpectedTotal: Int? = nil, totalRequests: Int,
        journalDropped: Int = 0, policy: StubSet.UnexpectedPolicy
    ) {
        self.routes = routes
        self.unexpected = unexpected
        self.unexpectedTotal = unexpectedTotal ?? unexpected.count
        self.totalRequests = totalRequests
        self.journalDropped = journalDropped
        self.policy = policy
    }

    /// One line per problem that fails the run: unmet expectations always, unexpected requests under `fail`.
    public var failures: [String] {
        var lines = routes.compactMap { route in
            route.expectationFailure.map { "route \(route.name) (\(route.source)): \($0)" }
        }
        lines += webhookFailures
        lines += upstreamFailures.map { "forward to a backend failed: \($0)" }
        lines += recordingProblems.map { "recording: \($0)" }
        if policy == .fail {
            if let unsettled { lines.append(unsettled) }
            lines += unexpected.map { "unexpected request \($0.method) \($0.url)" }
            if unexpectedTotal > unexpected.count { lines.append("\(unexpectedTotal - unexpected.count) more unexpected requests") }
        }
        return lines
    }

    /// The end-of-run text for stderr.
    /// - Parameter fullList: where every unexpected request can be read (a journal file written), or nil when
    ///   nothing keeps them: then the text past the first 20 says how to keep them, never "see the journal".
    public func render(fullList: String? = nil) -> String {
        var lines = [
            "mock server: \(totalRequests) request\(totalRequests == 1 ? "" : "s"), \(unexpectedTotal) unexpected"
                + (journalDropped > 0
                    ? " (journal kept the latest; \(journalDropped) older entries dropped to stay within its limits)" : "")
        ]
        let shown = routes.filter { $0.calls > 0 || $0.expectationFailure != nil || $0.headCalls > 0 || $0.unanswered > 0 }
        for route in shown {
            var line = "  \(route.calls)× \(route.name.escapingControlCharacters())"
            if route.addedByProgram { line += " (a mapping the program added)" }
            if route.unanswered > 0 { line += " (and \(route.unanswered) that could not be answered)" }
            if let failure = route.expectationFailure { line += "  ✗ \(failure)" }
            lines.append(line)
            if route.headCalls > 0 { lines.append("  \(route.headCalls)× HEAD, answered by \(route.name.escapingControlCharacters())") }
        }
        let uncalled = routes.count - routes.filter { $0.calls > 0 }.count
        if uncalled > 0 && shown.count < routes.count { lines.append("  (\(uncalled) route\(uncalled == 1 ? "" : "s") not called)") }
        for request in unexpected.prefix(20) {
            lines.append("  unexpected: " + request.description(indent: "    "))
        }
        if unexpectedTotal > 20 {
            let whereListed = fullList.map { "see \($0.escapingControlCharacters())" } ?? "add --journal FILE to keep them all"
            lines.append("  … and \(unexpectedTotal - 20) more unexpected requests (\(whereListed))")
        }
        lines += webhookFailures.map { "  ✗ \($0.escapingControlCharacters())" }
        lines += upstreamFailures.map { "  ✗ forward to a backend failed: \($0.escapingControlCharacters())" }
        lines += recordingProblems.map { "  ✗ recording: \($0.escapingControlCharacters())" }
        if policy == .fail, let unsettled { lines.append("  ✗ " + unsettled) }
        return lines.joined(separator: "\n")
    }

    /// The summary as JSON, for the run report.
    package func json() -> String {
        var output = "{\"totalRequests\":\(totalRequests),\"unexpectedPolicy\":" + JSONWriter.quoted(policy.rawValue)
        output +=
            ",\"routes\":["
            + routes.map { route in
                "{\"id\":" + JSONWriter.quoted(route.id) + ",\"name\":" + JSONWriter.quoted(route.name) + ",\"source\":"
                    + JSONWriter.quoted(route.source)
                    + ",\"calls\":\(route.calls)"
                    + (route.headCalls > 0 ? ",\"headCalls\":\(route.headCalls)" : "")
                    + (route.unanswered > 0 ? ",\"unanswered\":\(route.unanswered)" : "")
                    + (route.addedByProgram ? ",\"addedByProgram\":true" : "")
                    + (route.expectationFailure.map { ",\"expectationFailure\":" + JSONWriter.quoted($0) } ?? "") + "}"
            }.joined(separator: ",") + "]"
        output +=
            ",\"unexpected\":["
            + unexpected.map {
                "{\"method\":" + JSONWriter.quoted($0.method) + ",\"url\":" + JSONWriter.quoted($0.url) + ",\"nearMiss\":"
                    + JSONWriter.quoted($0.nearMiss) + "}"
            }.joined(separator: ",") + "]"
        output += ",\"failures\":[" + failures.map(JSONWriter.quoted).joined(separator: ",") + "]}"
        return output
    }
}
