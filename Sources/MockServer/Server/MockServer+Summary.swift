extension MockServer {
    /// Call counts, unexpected requests and expectation results so far. A route's calls are the requests it
    /// answered over the whole run (admin resets do not take calls away); a call whose answer could not be made (a
    /// template refused, a file unreadable) is not one of them, so an `expect` is never met by an answer the program
    /// did not get.
    public var summary: ServerSummary {
        let (stubs, counts) = parts.stubs.runCalls() // every call of the run, admin resets or not
        let heads = parts.stubs.headCallsOfRun()
        let unanswered = parts.stubs.unansweredOfRun()
        let policy = parts.stubs.unexpectedPolicy
        let totals = parts.journal.totals()
        let programMappings = [AdminWrites.allow, .trust].contains(parts.settings.options.adminWrites)
        // Mappings a recording just made and added are what was forwarded, not routes the run failed to call.
        var routes = stubs.indices.filter { !(stubs[$0].recorded && counts[$0] == 0) }.map { index in
            let stub = stubs[index]
            var route = Self.route(stub, made: counts[index], unanswered: unanswered[ObjectIdentifier(stub)] ?? 0)
            route.headCalls = heads[ObjectIdentifier(stub)] ?? 0
            route.addedByProgram = programMappings && stub.cameFromAdminAPI
            return route
        }
        // A route deleted through the admin API keeps its contract: unmet when deleted is unmet.
        routes += parts.stubs.retiredExpectations().compactMap { stub, calls in
            var route = Self.route(stub, made: calls, unanswered: unanswered[ObjectIdentifier(stub)] ?? 0)
            guard let failure = route.expectationFailure else { return nil }
            route.expectationFailure = "deleted while expected: " + failure
            return route
        }
        var summary = ServerSummary(
            routes: routes, unexpected: totals.unexpected, unexpectedTotal: totals.unexpectedTotal,
            totalRequests: totals.requests, journalDropped: totals.dropped, policy: policy)
        summary.webhookFailures = parts.journal.webhooks.report
        summary.upstreamFailures = parts.proxy.report
        return summary
    }

    /// A route from `stub` chosen `made` times, `unanswered` of which got no answer of its own: those are neither its
    /// calls nor count toward its `expect` (the failure says how many there were).
    private static func route(_ stub: Stub, made: Int, unanswered: Int) -> ServerSummary.Route {
        let unanswered = min(max(0, unanswered), made)
        let calls = made - unanswered
        let failure = stub.expectation?.check(calls).map { unanswered > 0 ? $0 + " (\(unanswered) could not be answered)" : $0 }
        var route = ServerSummary.Route(id: stub.id, name: stub.name, source: stub.source, calls: calls, expectationFailure: failure)
        route.unanswered = unanswered
        return route
    }
}
