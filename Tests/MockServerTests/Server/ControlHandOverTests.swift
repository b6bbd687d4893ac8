import Foundation
import Testing

@testable import MockServer

/// R8a-A2: a control message counts as delivered only once written to a live poller. A poll whose client is gone
/// (its socket closed, its process killed) takes nothing: the message waits for the next poller, and its sender is
/// told the truth (`X-Sut-Message-Delivered: false`), never "the program took it".
@Suite struct ControlHandOverTests {
    let octets = "Content-Type: application/octet-stream"

    /// Waits (at most 10 s) until `count` polls wait on the server's queue.
    private func awaitPolls(_ test: TestServer, _ count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while test.server.parts.control.pollsWaiting < count {
            guard Date() < deadline else { return false }
            usleep(2_000)
        }
        return true
    }

    /// A poll whose client closed its socket while it waited (as a crashed reader's).
    private func deadPoll(_ test: TestServer) throws {
        let client = try RawClient(port: test.port)
        client.send("GET /__sut/control?timeoutMs=30000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\(octets)\r\n\r\n")
        #expect(awaitPolls(test, 1))
        close(client.fd)
    }

    @Test func aMessageSentAfterItsPollerClosedGoesToTheNextPoller() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        try deadPoll(test)
        let sent = try run(
            "curl",
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", octets, "--data-binary", "important", "\(test.url)/__sut/control"])
        #expect(sent.stdout == "202")
        // The live poller gets it (before the fix: 204, the message gone into the closed socket).
        let live = try run("curl", ["-s", "-w", " %{http_code}", "-H", octets, "\(test.url)/__sut/control?timeoutMs=5000"])
        #expect(live.stdout == "important 200")
    }

    @Test func aSenderWaitingForTheAckOfAMessageNoLivePollerTookIsToldItWasNotDelivered() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        try deadPoll(test)
        let sent = try run(
            "curl", ["-s", "-i", "-H", octets, "--data-binary", "important", "\(test.url)/__sut/control?waitForAckMs=300"])
        #expect(sent.stdout.hasPrefix("HTTP/1.1 504"), "\(sent.stdout)")
        #expect(sent.stdout.contains("X-Sut-Message-Delivered: false"), "\(sent.stdout)")
        #expect(sent.stdout.contains("did not take control message 1"), "\(sent.stdout)")
    }

    @Test func aKilledPollingProcessTakesNothingAndTheNextPollerAcknowledges() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        let poller = Process()
        poller.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        poller.arguments = ["curl", "-s", "-o", "/dev/null", "-H", octets, "\(test.url)/__sut/control?timeoutMs=30000"]
        try poller.run()
        #expect(awaitPolls(test, 1))
        kill(poller.processIdentifier, SIGKILL)
        poller.waitUntilExit() // its socket is closed by the kernel now
        // The program's next reader takes it and acknowledges it: the sender gets the reply.
        let program = Thread {
            guard
                let taken = try? run(
                    "curl", ["-s", "-D", "-", "-o", "/dev/null", "-H", octets, "\(test.url)/__sut/control?timeoutMs=10000"]),
                let line = taken.stdout.split(separator: "\r\n").first(where: { $0.hasPrefix("X-Sut-Message-Id: ") })
            else { return }
            _ = try? run(
                "curl", ["-s", "-H", octets, "--data-binary", "done", "\(test.url)/__sut/control/ack?id=\(line.dropFirst(18))"])
        }
        program.start()
        let sent = try run("curl", ["-s", "-i", "-H", octets, "--data-binary", "refresh", "\(test.url)/__sut/control?waitForAckMs=10000"])
        #expect(sent.stdout.hasPrefix("HTTP/1.1 200"), "\(sent.stdout)")
        #expect(sent.stdout.hasSuffix("\r\n\r\ndone"), "\(sent.stdout)")
    }

    @Test func aMessageWhoseWriteFailedGoesBackToTheHeadOfTheQueue() {
        let queue = ControlQueue()
        guard case .success(let first) = queue.enqueue("first"), case .success = queue.enqueue("second"),
            let taken = queue.take(timeoutMs: 0, peerGone: { false })
        else {
            Issue.record("not queued")
            return
        }
        #expect(taken.id == first)
        #expect(!queue.waitForDelivery(first, timeoutMs: 0), "in flight is not delivered")
        queue.handedOver(taken, written: false)
        #expect(queue.acknowledge(first, reply: "") == .notDelivered)
        #expect(queue.take(timeoutMs: 0, peerGone: { true }) == nil, "a poller gone takes nothing")
        #expect(queue.next(timeoutMs: 0).map { "\($0.id) \($0.text)" } == "\(first) first")
        #expect(queue.waitForDelivery(first, timeoutMs: 0))
    }
}
