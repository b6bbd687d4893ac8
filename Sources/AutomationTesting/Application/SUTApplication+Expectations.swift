import AutomationSupport
import MockServer
public import ProcessEngine
import Scenarios

/// One thing a test expects to happen while the program runs: output from it, or requests from it.
public enum Expected: Sendable, Hashable, CustomStringConvertible {
    /// The stream contains `text`.
    case output(String, on: StandardStream = .stdout)
    /// The mock server received `times` requests to `route` (`"POST /login"`, templates allowed).
    case request(String, times: Int = 1)

    /// The item as failure messages name it: `output "done"`, `a request to GET /message`.
    public var description: String {
        switch self {
        case .output(let text, let stream): "output \"\(text)\"" + (stream == .stderr ? " on stderr" : "")
        case .request(let route, let times): "\(times == 1 ? "a request" : "\(times) requests") to \(RouteKey(route))"
        }
    }
}

extension SUTApplication {
    /// Output and requests closer than this count as simultaneous: the output's time is when the launcher's
    /// thread read it, the request's when the server's thread did, so a few milliseconds of either order
    /// are scheduling, not the program.
    public static let simultaneity: Duration = .milliseconds(50)

    /// Waits until everything listed has happened: each text appeared in the output and each route received
    /// its requests (from the mock server given at launch). With `enforceOrder` (the default) they must have
    /// happened in the order listed: an output/request that came before the previous item does not count.
    ///
    /// ```swift
    /// try await app.waitFor([.output("username:"), .request("POST /login"), .output("logged in as ada")])
    /// ```
    /// - Throws: ``AutomationError`` listing each item with ✓ or ✗, the requests seen and the last output lines.
    public func waitFor(_ expected: [Expected], timeout: Duration? = nil, enforceOrder: Bool = true) async throws {
        let process = try runningProcess()
        for case .output(let text, let stream) in expected { try requireVisible(stream, text: text) }
        for case .request(let route, let times) in expected {
            if let problem = RouteTarget.problem(RouteKey(route).path) { throw AutomationError(".request(\"\(route)\"): \(problem)") }
            if times <= 0 { throw AutomationError(".request(\"\(route)\", times: \(times)) could never fail: the wait is for what comes") }
        }
        let server = try expected.contains(where: { if case .request = $0 { true } else { false } }) ? launchedServer() : nil
        let limit = timeout ?? defaultTimeout
        let deadline = ContinuousClock.now + limit
        while true {
            let (lines, satisfied, cut) = Self.check(expected, process: process, server: server, enforceOrder: enforceOrder)
            if satisfied { return }
            let ended = process.status != nil && process.output.isFinished && !expectsRequestsAfterExit(expected, lines)
            if cut || ContinuousClock.now >= deadline || ended {
                let requests = server.map { Self.seen($0.journal.ordered.map(\.request)) } ?? ""
                // Why the wait stopped: the program ended (nothing more can come), or the time was up.
                let why = ended && !cut ? " (the program ended: nothing more could come)" : ""
                throw AutomationError(
                    "expected\(enforceOrder ? ", in this order" : ""), within \(Runner.format(limit))\(why):\n"
                        + lines.map { "  \($0)" }.joined(separator: "\n") + "\n" + requests + lastLines())
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Requests can still come after the program exits (a child it left); output cannot.
    private func expectsRequestsAfterExit(_ expected: [Expected], _ lines: [String]) -> Bool {
        zip(expected, lines).contains { item, line in
            if case .request = item { return line.hasPrefix("✗") }
            return false
        }
    }

    /// One line per item (✓ with its time, or ✗ with why), whether all hold, and whether an output item can
    /// never be decided (the stream was cut at a cap before it was found). Output is searched in the whole
    /// stream (memory, then the spool), never in the memory capture alone.
    private static func check(_ expected: [Expected], process: LaunchedProcess, server: MockServer?, enforceOrder: Bool) -> (
        [String], Bool, Bool
    ) {
        let (seconds, attoseconds) = SUTApplication.simultaneity.components
        let slack = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        let origin = process.startedAtMs
        var previous = -Double.infinity
        var lines: [String] = []
        var allHold = true
        var cut: String?
        for item in expected {
            let notBefore = enforceOrder ? previous - slack : -Double.infinity
            var at: Double?
            switch item {
            case .output(let text, let stream):
                let needle = Array(text.utf8)
                var start = 0
                searching: while true {
                    switch process.output.firstOffset(of: needle, on: stream, from: start) {
                    case .found(let found):
                        let time = process.output.arrival(ofByteAt: found + max(needle.count, 1) - 1, on: stream) ?? .infinity
                        if time >= notBefore {
                            at = time
                            break searching
                        }
                        start = found + 1
                    case .notYet: break searching
                    case .cut(let why):
                        cut = cut ?? why
                        break searching
                    }
                }
            case .request(let route, let times):
                let key = RouteKey(route)
                let base = server?.startedAtMs ?? 0
                let matching = (server?.journal.ordered ?? []).filter { key.matches($0.request) }.map { base + $0.receivedAtMs }.filter {
                    $0 >= notBefore
                }
                if times == 0 { at = previous } else if matching.count >= times { at = matching[times - 1] }
            }
            if let at, allHold {
                lines.append("✓ \(item) (at \(Int((at - origin).rounded())) ms)")
                previous = max(previous, at)
            } else if let why = cut, at == nil, case .output = item {
                lines.append("✗ \(item): not found before the cap: \(why)")
                allHold = false
            } else {
                lines.append(
                    "✗ \(item)" + (allHold ? (enforceOrder && previous > -.infinity ? ": not after the item before" : ": not yet") : ""))
                allHold = false
            }
        }
        return (lines, allHold, cut != nil && !allHold)
    }

    private static func seen(_ requests: [HTTPRequest]) -> String {
        "requests seen, in order:"
            + (requests.isEmpty ? " none" : "\n" + requests.map { "  \($0.method) \($0.target)" }.joined(separator: "\n")) + "\n"
    }
}
