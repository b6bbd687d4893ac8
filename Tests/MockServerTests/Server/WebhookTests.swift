import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// WireMock's `postServeActions` webhooks: sent after the answer, templated with the answered request, to this machine
/// only; one that cannot be delivered is a failure of the server's checks (issue 28: such mappings were refused).
@Suite struct WebhookTests {
    private static func caller(_ action: String) -> String {
        #"{ "mappings": [ { "request": { "method": "POST", "url": "/order" }, "response": { "status": 202, "body": "accepted" }, "postServeActions": \#(action) } ] }"#
    }

    private static let callee =
        #"{ "mappings": [ { "request": { "method": "POST", "url": "/callback" }, "response": { "status": 200 } } ] }"#

    private func post(_ server: TestServer, body: String = #"{"id": 42}"#) throws -> String {
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("POST /order HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        return client.read(timeout: 10)
    }

    @Test func aWebhookCarriesTheTemplatedRequestToItsTarget() throws {
        let callee = try TestServer(Self.callee)
        defer { callee.stop() }
        let action = """
            [ { "name": "webhook", "parameters": { "method": "POST", "url": "http://localhost:\(callee.port)/callback",
                "headers": { "Content-Type": "application/json", "X-Trace": "{{originalRequest.headers.Host}}" },
                "body": "{\\"order\\": {{jsonPath originalRequest.body '$.id'}}}" } } ]
            """
        let server = try TestServer(Self.caller(action))
        defer { server.stop() }
        #expect(try post(server).hasSuffix("accepted"))
        #expect(server.server.settle(timeout: .seconds(10)) && server.server.waitForWebhooks())
        let received = try #require(callee.server.journal.ordered.first?.request)
        #expect(received.bodyText == #"{"order": 42}"#)
        #expect(received.header("X-Trace") == "x" && received.header("Content-Type") == "application/json")
        #expect(server.server.summary.failures.isEmpty)
    }

    @Test func wireMock2sFormAndADelayAreKept() throws {
        let callee = try TestServer(Self.callee)
        defer { callee.stop() }
        let action = """
            { "webhook": { "url": "http://127.0.0.1:\(callee.port)/callback", "body": "late", "delay": { "type": "fixed", "milliseconds": 300 } } }
            """
        let server = try TestServer(Self.caller(action))
        defer { server.stop() }
        let start = Date()
        _ = try post(server)
        #expect(callee.server.journal.count == 0, "the delay was not waited")
        #expect(server.server.settle(timeout: .seconds(10)) && server.server.waitForWebhooks())
        #expect(Date().timeIntervalSince(start) >= 0.3)
        #expect(callee.server.journal.ordered.first?.request.bodyText == "late")
    }

    /// Attack 1, F10: a fragment or a bare query became the request-target (`POST ?@x/`, `POST /p#frag`).
    @Test func theRequestTargetStartsWithASlashAndHasNoFragment() throws {
        let cases = [
            ("http://127.0.0.1:9?@x/", "/?@x/"), ("http://127.0.0.1:9/p#frag", "/p"), ("http://127.0.0.1:9#@example.com/", "/"),
            ("http://127.0.0.1:9", "/"), ("http://[::1]:9/a?b=1#c", "/a?b=1"),
        ]
        for (url, path) in cases { #expect(Webhook.target(url).path == path && Webhook.target(url).problem == nil, "\(url)") }
        // After rendering too: the callee sees origin form.
        let callee = try TestServer(Self.callee)
        defer { callee.stop() }
        let action = #"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1:\#(callee.port){{request.headers.X-Rest}}" } } ]"#
        let server = try TestServer(Self.caller(action))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("POST /order HTTP/1.1\r\nHost: x\r\nX-Rest: ?q#frag\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(client.read(timeout: 10).hasSuffix("accepted"))
        #expect(server.server.settle(timeout: .seconds(10)) && server.server.waitForWebhooks())
        #expect(callee.server.journal.ordered.first?.request.target == "/?q")
    }

    @Test func aWebhookThatCannotBeDeliveredFailsTheChecks() throws {
        let action = #"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1:{{request.headers.X-Port}}/cb" } } ]"#
        let server = try TestServer(Self.caller(action))
        defer { server.stop() }
        _ = try post(server) // no X-Port: the URL renders without a port
        #expect(server.server.settle(timeout: .seconds(15)) && server.server.waitForWebhooks())
        let failures = server.server.summary.failures
        #expect(failures.count == 1 && failures[0].hasPrefix("webhook POST after POST /order"), "\(failures)")
    }

    @Test(arguments: [
        (#"[ { "name": "webhook", "parameters": { "url": "https://127.0.0.1:9/cb" } } ]"#, "plain HTTP to this machine"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://example.com/cb" } } ]"#, "this machine only"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://10.0.0.1/cb" } } ]"#, "this machine only"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1:99999/cb" } } ]"#, "port"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1/cb", "method": "PO ST" } } ]"#, "method"),
        (#"[ { "name": "slack", "parameters": {} } ]"#, "\"slack\" is not supported"),
        (#"[ { "name": "webhook", "parameters": { "method": "POST" } } ]"#, "needs a \"url\""),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1/cb", "body": "{{#each}}" } } ]"#, "webhook"),
        // Fourth hostile review: these passed `check` and were sent as written.
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1:9/d\r\nX: y" } } ]"#, "no space, line break"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1:9/a b" } } ]"#, "no space, line break"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1/cb", "headers": { "Bad Name": "x" } } } ]"#, "token"),
        (
            #"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1/cb", "headers": { "Content-Length": "9" } } } ]"#,
            "writes Content-Length itself"
        ),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1/cb", "body": "a", "base64Body": "YQ==" } } ]"#, "one body"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1@192.0.2.2:9/a" } } ]"#, "userinfo"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1.nip.io:9/a" } } ]"#, "this machine only"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.000.000.001:9/a" } } ]"#, "leading zero"),
        (#"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.01:9/a" } } ]"#, "leading zero"),
    ])
    func webhooksThatCouldNotBeSentAreRefusedAtLoad(action: String, message: String) {
        #expect {
            _ = try StubLoader.parse(Self.caller(action), file: "m.json")
        } throws: { error in
            "\(error)".contains(message) && "\(error)".hasPrefix("m.json:")
        }
    }

    /// Fourth hostile review: a CR LF rendered into the URL added header lines to the webhook's request.
    @Test func aRenderedURLThatWouldSplitTheRequestIsAFailureNotSent() throws {
        let callee = try TestServer(Self.callee)
        defer { callee.stop() }
        let action = #"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1:\#(callee.port)/{{request.headers.X-Path}}" } } ]"#
        let server = try TestServer(Self.caller(action))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("POST /order HTTP/1.1\r\nHost: x\r\nX-Path: a b\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        _ = client.read(timeout: 10)
        server.server.settle(timeout: .seconds(10))
        server.server.waitForWebhooks()
        #expect(callee.server.journal.count == 0)
        #expect(server.server.summary.failures.first?.contains("no space, line break") == true, "\(server.server.summary.failures)")
    }

    /// r11 R11-8: a webhook whose body or header template failed (a helper refusing a value, the budget) was sent with
    /// the error's text as its body, and the run passed: it is a failure naming the reason, and nothing is sent.
    @Test(arguments: [
        #""body": "{{parseJson originalRequest.body}}""#,
        #""headers": { "X-D": "{{parseJson originalRequest.body}}" }, "body": "b""#,
        #""body": "{{randomInt lower=originalRequest.headers.Host upper=1}}""#,
    ])
    func aWebhookWhoseTemplateFailsIsAFailureNotSent(parameters: String) throws {
        let callee = try TestServer(Self.callee)
        defer { callee.stop() }
        let action =
            #"[ { "name": "webhook", "parameters": { "method": "POST", "url": "http://127.0.0.1:\#(callee.port)/callback", \#(parameters) } } ]"#
        let server = try TestServer(Self.caller(action))
        defer { server.stop() }
        #expect(try post(server, body: "{not json").hasSuffix("accepted"))
        #expect(server.server.settle(timeout: .seconds(10)) && server.server.waitForWebhooks())
        #expect(callee.server.journal.count == 0, "\(callee.server.journal.ordered.map(\.request.bodyText))")
        let failures = server.server.summary.failures
        #expect(failures.count == 1 && failures[0].contains("its body or headers: template: {{"), "\(failures)")
    }

    /// Two templated values of one header are each rendered in their place (setting by name kept the last alone).
    @Test func everyTemplatedValueOfAHeaderIsRendered() throws {
        let callee = try TestServer(Self.callee)
        defer { callee.stop() }
        let action = """
            [ { "name": "webhook", "parameters": { "method": "POST", "url": "http://127.0.0.1:\(callee.port)/callback",
                "headers": { "X-T": ["{{originalRequest.method}}", "plain", "u={{originalRequest.url}}"] }, "body": "b" } } ]
            """
        let server = try TestServer(Self.caller(action))
        defer { server.stop() }
        _ = try post(server)
        #expect(server.server.settle(timeout: .seconds(10)) && server.server.waitForWebhooks())
        let received = try #require(callee.server.journal.ordered.first?.request)
        #expect(received.headers.values("X-T") == ["POST", "plain", "u=/order"], "\(received.headers.entries)")
    }

    /// Fourth hostile review: the webhook left before the answer (12 ms after the request, the answer 1.8 s later).
    @Test func theWebhookLeavesAfterTheAnswer() throws {
        let callee = try TestServer(Self.callee)
        defer { callee.stop() }
        let caller = """
            { "mappings": [ { "request": { "url": "/slow" }, "response": { "status": 200, "body": "done", "fixedDelayMilliseconds": 400 },
              "postServeActions": [ { "name": "webhook", "parameters": { "url": "http://127.0.0.1:\(callee.port)/callback" } } ] } ] }
            """
        let server = try TestServer(caller)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(client.read(until: "done", timeout: 10).hasSuffix("done"))
        let answeredAt = MonotonicClock.milliseconds()
        #expect(server.server.waitForWebhooks())
        let calledAt = try #require(callee.server.journal.ordered.first).receivedAtMs + callee.server.startedAtMs
        #expect(calledAt >= answeredAt - 50, "the webhook came \(answeredAt - calledAt) ms before the answer")
    }

    /// Fourth hostile review: one thread per webhook without a limit (3,002 threads from a flood).
    @Test func webhooksInFlightAreBoundedAndTheRestAreFailures() {
        let log = WebhookLog()
        #expect(log.reserve(WebhookLog.inFlightLimit - 1, delayMs: 0).allowed == WebhookLog.inFlightLimit - 1)
        #expect(log.reserve(5, delayMs: 0) == (1, "not sent, \(WebhookLog.inFlightLimit) webhooks were in flight"))
        log.refused("webhook POST after x: not sent")
        #expect(log.report.first == "webhook POST after x: not sent")
        for _ in 0..<WebhookLog.inFlightLimit { log.finished(failure: nil) }
        #expect(log.pending == 0 && log.waitWhilePending())
    }

    /// Attack 1, F1: a webhook calling its own server kept it alive forever; each reservation pushed the end's wait
    /// further. Once the wait begins nothing more is reserved, and its deadline is fixed then.
    @Test func theEndsWaitStopsReservingAndKeepsItsDeadline() {
        let log = WebhookLog()
        #expect(log.reserve(1, delayMs: 600_000).allowed == 1)
        #expect(!log.waitWhilePending(timeoutMs: 20), "one still in flight at the deadline")
        #expect(log.reserve(2, delayMs: 0) == (0, "not sent, the server was stopping"))
        log.finished(failure: nil)
        #expect(log.waitWhilePending(timeoutMs: 0))
    }

    /// Attack 1, F1: two webhooks per answer, each calling the server again, kept 64 in flight without end (120 %
    /// CPU); starts per second are bounded too.
    @Test func aStormOfWebhooksIsBoundedPerSecond() {
        let log = WebhookLog()
        var refusal: String?
        for _ in 0..<100_000 where refusal == nil {
            let ticket = log.reserve(2, delayMs: 0)
            for _ in 0..<ticket.allowed { log.finished(failure: nil) }
            if ticket.allowed < 2 { refusal = ticket.refusal }
        }
        #expect(refusal == "not sent, \(WebhookLog.startsPerSecond) webhooks had started within a second")
    }

    /// An answer no connection writes (`handle(_:)`, for embedders) sends its webhooks at once: their reserved slots
    /// would otherwise hold a run's end until their deadline.
    @Test func anAnswerFromHandleSendsItsWebhooks() throws {
        let callee = try TestServer(Self.callee)
        defer { callee.stop() }
        let action = #"[ { "name": "webhook", "parameters": { "url": "http://127.0.0.1:\#(callee.port)/callback", "body": "direct" } } ]"#
        let server = MockServer(stubs: try StubLoader.parse(Self.caller(action), file: "m.json"))
        let answer = server.handle(HTTPRequest(method: "POST", target: "/order"))
        #expect(answer.status == 202 && answer.afterAnswer == nil)
        #expect(server.waitForWebhooks())
        #expect(callee.server.journal.ordered.first?.request.bodyText == "direct")
    }
}
