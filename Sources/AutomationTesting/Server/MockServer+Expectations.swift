import AutomationSupport
import MockServer
import ProcessEngine
import Scenarios

/// Declare the calls a test expects, then wait for them (TestAbstraction's expect-then-wait).
///
/// ```swift
/// server.expect("POST /login", times: 1)
/// server.expect("GET /cities")
/// try app.launch(arguments: ["fetch"], server: server)
/// try await server.waitForExpectations(timeout: .seconds(5), enforceOrder: true)
/// ```
extension MockServer {
    /// Declares that `route` (`"POST /login"`, templates allowed) is to be called `times` times.
    public func expect(_ route: String, times: Int = 1) {
        declaredExpectations.withLock { $0.append((RouteKey(route), times)) }
    }

    /// Waits until every declared call has come (at least `times` each; with `enforceOrder`, the calls
    /// complete in the order they were declared).
    /// - Throws: ``AutomationError`` naming what was missing or out of order, with the requests seen.
    public func waitForExpectations(timeout: Duration = WaitTimeout.standard, enforceOrder: Bool = false) async throws {
        let expectations = declaredExpectations.current
        // Expectations that could never fail, refused by name: a route the server never compares (a query, a URL),
        // and `times: 0` (the wait is for calls that come: at least none always holds).
        for (route, times) in expectations {
            if let problem = RouteTarget.problem(route.path) { throw AutomationError("expect(\"\(route)\"): \(problem)") }
            if times <= 0 {
                throw AutomationError(
                    "expect(\"\(route)\", times: \(times)) could never fail: the wait is for calls that come; check an absence once the "
                        + "program has ended with server.requests(to: \"\(route)\").isEmpty")
            }
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            let requests = self.requests
            let problem = Self.expectationProblem(expectations, requests: requests, enforceOrder: enforceOrder)
            guard let problem else { return }
            if ContinuousClock.now >= deadline {
                throw AutomationError("\(problem) within \(Runner.format(timeout))\n" + Self.seen(requests))
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits for the first request to `route` and returns it.
    /// - Throws: ``AutomationError`` with the requests seen when none came within `timeout`.
    @discardableResult
    public func waitForRequest(_ route: String, timeout: Duration = WaitTimeout.standard) async throws -> HTTPRequest {
        let key = RouteKey(route)
        if let problem = RouteTarget.problem(key.path) { throw AutomationError("waitForRequest(\"\(route)\"): \(problem)") }
        let deadline = ContinuousClock.now + timeout
        while true {
            if let request = requests.first(where: key.matches) { return request }
            if ContinuousClock.now >= deadline {
                throw AutomationError("expected a request to \(key) within \(Runner.format(timeout))\n" + Self.seen(requests))
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// What is still missing (or out of order), or nil when every expectation holds.
    static func expectationProblem(_ expectations: [(route: RouteKey, times: Int)], requests: [HTTPRequest], enforceOrder: Bool) -> String?
    {
        var completedAt: [Int] = []
        for (route, times) in expectations {
            let positions = requests.indices.filter { route.matches(requests[$0]) }
            guard positions.count >= times else {
                return "expected \(times) request\(times == 1 ? "" : "s") to \(route), got \(positions.count)"
            }
            completedAt.append(times == 0 ? -1 : positions[times - 1])
        }
        if enforceOrder {
            for index in completedAt.indices.dropFirst() where completedAt[index] < completedAt[index - 1] {
                return "expected \(expectations[index - 1].route) before \(expectations[index].route), in the order declared"
            }
        }
        return nil
    }

    private static func seen(_ requests: [HTTPRequest]) -> String {
        "requests seen, in order:"
            + (requests.isEmpty ? " none" : "\n" + requests.map { "  \($0.method) \($0.target)" }.joined(separator: "\n"))
    }
}
