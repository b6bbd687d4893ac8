import AutomationSupport

extension MockServer {
    /// Forwards `request` by `rule` and answers with what the backend answered (its framing redone by our writer), or
    /// with a 502/504 naming why there is no answer, which also fails the run (``ServerSummary/failures``).
    static func forward(_ request: HTTPRequest, by rule: ProxyRule, log: ProxyLog) -> MockResponse {
        relay(request, by: rule, log: log).response
    }

    /// ``forward(_:by:log:)``'s answer, and whether it is the backend's (not one of ours saying why there is none).
    static func relay(_ request: HTTPRequest, by rule: ProxyRule, log: ProxyLog) -> (response: MockResponse, relayed: Bool) {
        // CONNECT, `*` and other targets that are not a path name nothing on the backend: not forwarded.
        guard request.path.hasPrefix("/") else {
            log.failed(
                "\(request.method) \(request.target.prefix(200).escapingControlCharacters()): not forwarded: the target is not a path")
            return (
                .text(
                    "sut-launch proxy: \(request.method) \(request.target.prefix(200)) is not forwarded: the target is not a path\n",
                    status: 400), false
            )
        }
        let result = UpstreamClient.exchange(
            method: request.method, target: rule.upstreamTarget(for: request), headers: log.loop.marked(rule.upstreamHeaders(for: request)),
            body: rule.upstreamBody(for: request), to: rule.target, limits: log.limits)
        switch result {
        case .success(let answer) where ProxyLoop.isLoopAnswer(answer):
            // A sut-launch server's 508 (ours, or one on the way): the request came back to a server that forwarded
            // it. A failure of the run, relayed, never an answer to record.
            let said = String(decoding: answer.body.prefix(600), as: UTF8.self).trimmingCharacters(in: " \n")
            log.failed(
                "\(request.method) \(request.target.prefix(200).escapingControlCharacters()) to \(rule.target): \(said.replacingOccurrences(of: "sut-launch proxy: ", with: "").escapingControlCharacters())"
            )
            var relayed = MockResponse.text(said + "\n", status: 508)
            relayed.headers.add("Via", log.loop.viaEntry)
            return (relayed, false)
        case .success(let answer):
            var headers = HopByHop.removed(from: answer.headers)
            if request.method == "HEAD", let length = answer.headers["Content-Length"] { headers.set("Content-Length", length) }
            let response = MockResponse(
                status: answer.status, reason: answer.reason.isEmpty ? nil : answer.reason, headers: headers, body: answer.body)
            if let problem = HTTPField.problem(in: response) {
                log.failed(
                    "\(request.method) \(request.target.prefix(200).escapingControlCharacters()): \(rule.target) answered what cannot be relayed: \(problem)"
                )
                return (.text("sut-launch proxy: \(rule.target) answered what cannot be relayed: \(problem)\n", status: 502), false)
            }
            log.add(request, answer) // only what the program received is recorded
            return (response, true)
        case .failure(let failure):
            log.failed("\(request.method) \(request.target.prefix(200).escapingControlCharacters()): \(failure.reason)")
            return (.text("sut-launch proxy: \(failure.reason)\n", status: failure.status), false)
        }
    }
}
