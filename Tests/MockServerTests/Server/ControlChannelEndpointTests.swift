import Foundation
import Testing

@testable import MockServer

/// `/__sut/control` over a real socket with curl: send, receive with the id, acknowledge with a reply, and a
/// sender that waits for that reply.
@Suite struct ControlChannelEndpointTests {
    /// Writes to the control channel carry this type (a web page cannot send it without a CORS preflight).
    let octets = "Content-Type: application/octet-stream"

    @Test func aMessageIsReceivedWithItsIdAndItsAcknowledgementCarriesTheReply() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        let sent = try run("curl", ["-s", "-i", "-H", octets, "-X", "POST", "--data-binary", "refresh", "\(test.url)/__sut/control"])
        #expect(sent.stdout.hasPrefix("HTTP/1.1 202"))
        #expect(sent.stdout.contains("X-Sut-Message-Id: 1"))
        #expect(sent.stdout.hasSuffix(#"{"id":1}"#))

        // Taking a message needs the channel's type too: an <img> on a page must not drain the queue.
        let bare = try run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(test.url)/__sut/control?timeoutMs=0"])
        #expect(bare.stdout == "415")
        let received = try run("curl", ["-s", "-i", "-H", octets, "\(test.url)/__sut/control?timeoutMs=1000"])
        #expect(received.stdout.hasPrefix("HTTP/1.1 200"))
        #expect(received.stdout.contains("X-Sut-Message-Id: 1"))
        #expect(received.stdout.hasSuffix("\r\n\r\nrefresh"))

        #expect(test.server.waitForControlAcknowledgement(of: 1, timeout: .milliseconds(50)) == nil)
        let acked = try run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", octets, "-X", "POST", "--data-binary", "refreshed 3 items",
                "\(test.url)/__sut/control/ack?id=1",
            ])
        #expect(acked.stdout == "204")
        #expect(test.server.waitForControlAcknowledgement(of: 1, timeout: .seconds(1)) == "refreshed 3 items")
    }

    @Test func aSenderCanWaitForTheAcknowledgementOverHTTP() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        // The "program": takes the message and acknowledges it from another thread.
        let program = Thread {
            guard let message = test.server.parts.control.next(timeoutMs: 5_000) else { return }
            _ = test.server.parts.control.acknowledge(message.id, reply: "pong to \(message.text)")
        }
        program.start()
        let answer = try run(
            "curl", ["-s", "-i", "-H", octets, "-X", "POST", "--data-binary", "ping", "\(test.url)/__sut/control?waitForAckMs=5000"])
        #expect(answer.stdout.hasPrefix("HTTP/1.1 200"))
        #expect(answer.stdout.hasSuffix("\r\n\r\npong to ping"))

        let unanswered = try run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", octets, "-X", "POST", "--data-binary", "nobody reads",
                "\(test.url)/__sut/control?waitForAckMs=100",
            ])
        #expect(unanswered.stdout == "504")
    }

    /// r6a-1/2: a misspelt or unknown parameter was a 202 that never waited, `waitForAckMs=0` always a 504, and the
    /// 504 said "never delivered" of a message the program had taken: 400s naming the parameter, and the 504 says
    /// whether the program took the message.
    @Test func unknownParametersAreRefusedAndTheTimeoutSaysWhetherTheMessageWasTaken() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        for (method, target, named) in [
            (
                "POST", "/__sut/control?waitForAck=3000",
                "?waitForAck is not a parameter of POST /__sut/control (did you mean waitForAckMs?)"
            ),
            ("POST", "/__sut/control?waitforackms=500", "(did you mean waitForAckMs?)"),
            ("GET", "/__sut/control?timeoutMS=2000", "?timeoutMS is not a parameter of GET /__sut/control (did you mean timeoutMs?)"),
            ("POST", "/__sut/control/ack?id=1&extra=1", "?extra is not a parameter of POST /__sut/control/ack"),
            ("POST", "/__sut/control?waitForAckMs=0", "?waitForAckMs:"),
            ("GET", "/__sut/control?timeoutMs=-0", "(bare digits: no sign, no leading zero)"),
        ] {
            let answer = try run(
                "curl", ["-s", "-w", " %{http_code}", "-H", octets, "-X", method, "--data-binary", "m", "\(test.url)\(target)"])
            #expect(answer.stdout.hasSuffix(" 400") && answer.stdout.contains(named), "\(target): \(answer.stdout)")
        }
        #expect(test.server.parts.control.next(timeoutMs: 0) == nil, "a refused send queued nothing")

        let program = Thread { _ = test.server.parts.control.next(timeoutMs: 5_000) } // takes it, never acknowledges
        program.start()
        let taken = try run(
            "curl", ["-s", "-i", "-H", octets, "-X", "POST", "--data-binary", "pay", "\(test.url)/__sut/control?waitForAckMs=300"])
        #expect(taken.stdout.hasPrefix("HTTP/1.1 504") && taken.stdout.contains("X-Sut-Message-Delivered: true"), "\(taken.stdout)")
        #expect(
            taken.stdout.contains(
                "control message 1 was written to the program's poll but not acknowledged within 300 ms: the program may have read"),
            "\(taken.stdout)")
        let queued = try run(
            "curl", ["-s", "-i", "-H", octets, "-X", "POST", "--data-binary", "x", "\(test.url)/__sut/control?waitForAckMs=50"])
        #expect(
            queued.stdout.contains("X-Sut-Message-Delivered: false") && queued.stdout.contains("never delivered now"), "\(queued.stdout)")
    }

    @Test func badAcknowledgementsAreNamed() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        let unknown = try run("curl", ["-s", "-w", " %{http_code}", "-X", "POST", "\(test.url)/__sut/control/ack?id=7"])
        #expect(unknown.stdout == "no control message 7 was sent\n 404")
        let missing = try run("curl", ["-s", "-w", " %{http_code}", "-X", "POST", "\(test.url)/__sut/control/ack"])
        #expect(missing.stdout.hasSuffix(" 400"))
        #expect(missing.stdout.contains("?id=N"))
        let notANumber = try run("curl", ["-s", "-w", " %{http_code}", "-X", "POST", "\(test.url)/__sut/control/ack?id=1e3"])
        #expect(notANumber.stdout == "?id: '1e3' is not a whole number from 1 to \(Int.max) (bare digits: no sign, no leading zero)\n 400")
        let wrongMethod = try run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(test.url)/__sut/control/ack?id=1"])
        #expect(wrongMethod.stdout == "405")
    }

    @Test func theQueueIsBounded() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        for index in 0..<ControlQueue.queueLimit { #expect(test.server.sendControlMessage("m\(index)") != nil) }
        #expect(test.server.sendControlMessage("one too many") == nil)
        #expect(test.server.enqueueControlMessage("one too many") == .failure(.full(limit: ControlQueue.queueLimit)))
        let refused = try run(
            "curl", ["-s", "-w", " %{http_code}", "-H", octets, "-X", "POST", "--data-binary", "x", "\(test.url)/__sut/control"])
        #expect(refused.stdout.hasSuffix(" 503"))
        #expect(refused.stdout.contains("is the program reading them?"))
    }

    @Test func aMessageOverTheLimitIsRefusedByName() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        let large = String(repeating: "x", count: ControlQueue.messageLimit + 1)
        #expect(test.server.enqueueControlMessage(large) == .failure(.tooLarge(bytes: large.utf8.count, limit: ControlQueue.messageLimit)))
        #expect(test.server.sendControlMessage(large) == nil)
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("control-\(UUID().uuidString)")
        try Data(large.utf8).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let refused = try run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", octets, "-X", "POST", "--data-binary", "@\(body.path)",
                "\(test.url)/__sut/control",
            ])
        #expect(refused.stdout == "413")
        #expect(test.server.parts.control.next(timeoutMs: 0) == nil)
    }

    /// The queue is bounded in bytes too: 10,000 messages of 1 MiB would be 10 GB.
    @Test func theQueueAndTheRepliesAreBoundedInBytes() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        let large = String(repeating: "m", count: ControlQueue.messageLimit - 1)
        var sent: [Int] = []
        while let id = test.server.sendControlMessage(large) { sent.append(id) }
        #expect(sent.count == ControlQueue.queueByteLimit / large.utf8.count)
        #expect(test.server.sendControlMessage("small") != nil)
        // A message taken frees its room.
        #expect(test.server.parts.control.next(timeoutMs: 0)?.id == sent[0])
        sent.append(try #require(test.server.sendControlMessage(large)))
        // Replies: the oldest go first once their bytes pass the budget; the latest is always kept.
        while test.server.parts.control.next(timeoutMs: 0) != nil {} // the program reads them all (only those can be acknowledged)
        for id in sent { #expect(test.server.parts.control.acknowledge(id, reply: large) == nil) }
        #expect(test.server.waitForControlAcknowledgement(of: sent.last!, timeout: .zero) == large)
        #expect(test.server.waitForControlAcknowledgement(of: sent[0], timeout: .zero) == nil)
    }

    /// A program left running by an earlier run polls its old port; when this server is given that port, the leftover
    /// names its old channel and takes nothing (the suite's own flake: a leftover took another test's "refresh").
    @Test func aRequestNamingAnotherServersChannelTakesNothing() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        let url = test.server.controlURL
        #expect(url.hasPrefix("\(test.url)/__sut/control?channel="))
        let own = String(url.split(separator: "=").last ?? "")
        #expect(own.count == 32 && own.allSatisfy(\.isHexDigit))
        let other = try TestServer(#"{"routes": []}"#)
        defer { other.stop() }
        #expect(other.server.controlURL.split(separator: "=").last != own[...]) // every server draws its own
        let sent = try run(
            "curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", octets, "--data-binary", "refresh", "\(test.url)/__sut/control"])
        #expect(sent.stdout == "202")

        let stale = String(repeating: "0", count: 32)
        let leftover = try run("curl", ["-s", "-i", "-H", octets, "\(test.url)/__sut/control?timeoutMs=0&channel=\(stale)"])
        #expect(leftover.stdout.hasPrefix("HTTP/1.1 410"), "\(leftover.stdout)")
        #expect(leftover.stdout.contains("control channel \(stale) is not this server's"))
        let twice = try run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", octets, "\(url)&channel=\(own)"])
        #expect(twice.stdout == "400")
        let staleAck = try run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", octets, "--data-binary", "x",
                "\(test.url)/__sut/control/ack?id=1&channel=\(stale)",
            ])
        #expect(staleAck.stdout == "410")

        // The message is still there for the program this server was started for.
        let received = try run("curl", ["-s", "-i", "-H", octets, "\(url)&timeoutMs=5000"])
        #expect(received.stdout.hasPrefix("HTTP/1.1 200") && received.stdout.hasSuffix("\r\n\r\nrefresh"), "\(received.stdout)")
        let acked = try run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", octets, "--data-binary", "ok",
                "\(test.url)/__sut/control/ack?id=1&channel=\(own)",
            ])
        #expect(acked.stdout == "204")
    }
}
