import AutomationSupport
import Foundation
import Testing

@testable import MockServer

private let routes = """
    { "routes": [
      { "method": "GET", "path": "/message", "body": "Hello world" },
      { "method": "POST", "path": "/upload", "status": 201, "body": "stored" },
      { "method": "GET", "path": "/chunked", "body": "in chunks", "chunked": true },
      { "path": "/slow", "delayMs": 300, "body": "late" },
      { "path": "/reset", "fault": "connection-reset" },
      { "path": "/empty", "fault": "empty-response" },
      { "path": "/malformed", "fault": "malformed-chunk" },
      { "path": "/random", "fault": "random-data" },
      { "path": "/nocontent", "status": 204 }
    ] }
    """

@Suite struct HTTPServerCurlTests {
    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func http11KeepAliveReusesOneConnection() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let result = try run(
            "curl", ["-s", "-w", " %{num_connects}\\n", "\(server.url)/message", "\(server.url)/message", "\(server.url)/message"])
        #expect(result.status == 0)
        #expect(result.stdout == "Hello world 1\nHello world 0\nHello world 0\n")
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func http10ClosesUnlessAskedToKeepAlive() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let result = try run("curl", ["-s", "-0", "-i", "\(server.url)/message"])
        #expect(result.stdout.hasPrefix("HTTP/1.0 200 OK\r\n"))
        #expect(result.stdout.contains("Connection: close\r\n"))
        #expect(result.stdout.hasSuffix("\r\n\r\nHello world"))
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func headAnswersHeadersWithoutABody() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let result = try run("curl", ["-s", "-I", "\(server.url)/message"])
        #expect(result.stdout == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 11\r\n\r\n")
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func chunkedUploadIsDecodedIntoTheJournal() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let body = String(repeating: "0123456789", count: 5_000)
        let result = try run(
            "curl", ["-s", "-w", "%{http_code}", "-H", "Transfer-Encoding: chunked", "--data-binary", "@-", "\(server.url)/upload"],
            stdin: Data(body.utf8))
        #expect(result.stdout == "stored201")
        let entry = try #require(server.server.journal.ordered.last)
        #expect(entry.request.body.count == body.utf8.count)
        #expect(entry.request.bodyText == body)
        #expect(entry.request.header("Transfer-Encoding") == "chunked")
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func expect100ContinueIsAnsweredAtOnce() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let body = Data(repeating: 65, count: 200_000)
        let started = Date()
        // curl waits a full second for "100 Continue" when a server does not send it.
        let result = try run(
            "curl", ["-s", "-v", "-H", "Expect: 100-continue", "--expect100-timeout", "60", "--data-binary", "@-", "\(server.url)/upload"],
            stdin: body)
        #expect(result.stdout == "stored")
        #expect(result.stderr.contains("HTTP/1.1 100 Continue"))
        #expect(Date().timeIntervalSince(started) < 30) // curl would wait the full 60 s for a 100 that never came
        let entry = try #require(server.server.journal.ordered.last)
        #expect(entry.bodySize == 200_000 && entry.bodyTruncated && entry.request.body.count == Journal.maxBodyBytes)
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func chunkedResponsesAndNoContent() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let chunked = try run("curl", ["-s", "-i", "\(server.url)/chunked"])
        #expect(chunked.stdout.contains("Transfer-Encoding: chunked\r\n"))
        #expect(chunked.stdout.hasSuffix("in chunks"))
        let noContent = try run("curl", ["-s", "-i", "\(server.url)/nocontent"])
        #expect(noContent.stdout == "HTTP/1.1 204 No Content\r\n\r\n")
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func faultsBreakTheConnectionTheWayWireMockDoes() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        #expect(try run("curl", ["-s", "\(server.url)/reset"]).status == 56) // recv failure: connection reset
        #expect(try run("curl", ["-s", "\(server.url)/empty"]).status == 52) // empty reply from server
        #expect(try run("curl", ["-s", "\(server.url)/malformed"]).status != 0)
        #expect(try run("curl", ["-s", "\(server.url)/random"]).status != 0)
        // The server is fine afterwards.
        #expect(try run("curl", ["-s", "\(server.url)/message"]).stdout == "Hello world")
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func delaysDelay() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let started = Date()
        #expect(try run("curl", ["-s", "\(server.url)/slow"]).stdout == "late")
        #expect(Date().timeIntervalSince(started) >= 0.3)
    }
}

@Suite struct HTTPServerRawTests {
    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(
            "GET /message HTTP/1.1\r\nHost: x\r\n\r\nGET /nothing-here HTTP/1.1\r\nHost: x\r\n\r\nPOST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /message HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        let answer = client.read()
        let statuses = answer.matches(of: /HTTP\/1\.1 \d{3} [A-Za-z ]+\r\n/).map { $0.output.dropLast(1) } // "\r\n" is one Character
        #expect(statuses == ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found", "HTTP/1.1 201 Created", "HTTP/1.1 200 OK"])
        #expect(answer.hasSuffix("Connection: close\r\n\r\nHello world"))
        #expect(server.server.journal.ordered.map(\.request.path) == ["/message", "/nothing-here", "/upload", "/message"])
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", "HTTP/1.1 400 Bad Request", "malformed request line"),
        ("GET /message HTTP/1.1\r\n\r\n", "HTTP/1.1 400 Bad Request", "without a Host header"),
        ("GET /message HTTP/2.0\r\nHost: x\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported", "HTTP/2.0 is not supported"),
        ("GET /message HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", "HTTP/1.1 400 Bad Request", "invalid header field name"),
        ("GET /message HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", "HTTP/1.1 400 Bad Request", "obsolete line folding"),
        (
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", "HTTP/1.1 400 Bad Request",
            "both Transfer-Encoding and Content-Length"
        ),
        ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1, 2\r\n\r\n", "HTTP/1.1 400 Bad Request", "conflicting Content-Length"),
        ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", "HTTP/1.1 400 Bad Request", "invalid Content-Length"),
        // RFC 9112 §6.3: an empty or non-digit Content-Length is invalid (it was read as 0, the body as the next request).
        ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n", "HTTP/1.1 400 Bad Request", "invalid Content-Length"),
        ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ,\r\n\r\n", "HTTP/1.1 400 Bad Request", "invalid Content-Length"),
        ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3,\r\n\r\nabc", "HTTP/1.1 400 Bad Request", "Content-Length"),
        (
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length:\r\n\r\nabc", "HTTP/1.1 400 Bad Request",
            "Content-Length"
        ),
        ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 0x3\r\n\r\nabc", "HTTP/1.1 400 Bad Request", "invalid Content-Length"),
        (
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", "HTTP/1.1 400 Bad Request",
            "conflicting Content-Length"
        ),
        (
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\n",
            "HTTP/1.1 400 Bad Request", "both Transfer-Encoding and Content-Length"
        ),
        // RFC 9112 §3.2: more than one Host field is 400 (one for the policy, one for the router to read).
        ("GET /message HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n", "HTTP/1.1 400 Bad Request", "more than one Host"),
        // RFC 9110 §7.2: host [":" port]; `localhost:18080:1` was read as localhost (r7a F8).
        ("GET /message HTTP/1.1\r\nHost: localhost:18080:1\r\n\r\n", "HTTP/1.1 400 Bad Request", "more than one ':'"),
        ("GET /message HTTP/1.1\r\nHost: ::1\r\n\r\n", "HTTP/1.1 400 Bad Request", "more than one ':'"),
        ("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "HTTP/1.1 501 Not Implemented", "gzip"),
        ("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "HTTP/1.1 400 Bad Request", "invalid chunk size"),
        // Found by fuzzing: a signed size once reached a range with its negative value and stopped the server.
        (
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-556\r\n1\n", "HTTP/1.1 400 Bad Request",
            "invalid chunk size"
        ),
        (
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n", "HTTP/1.1 400 Bad Request",
            "invalid chunk size"
        ),
        ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", "HTTP/1.1 413 Content Too Large", "larger than"),
    ])
    func malformedRequestsGetTheirStatusAndTheConnectionCloses(request: String, status: String, reason: String) throws {
        var limits = ServerLimits()
        limits.maxBodyBytes = 1_000_000
        let server = try TestServer(routes, limits: limits)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(request)
        let answer = client.read()
        #expect(answer.hasPrefix(status + "\r\n"), "\(answer)")
        #expect(answer.contains(reason), "\(answer)")
        #expect(answer.contains("Connection: close"))
        // And it still serves everybody else.
        let other = try RawClient(port: server.port)
        defer { other.close() }
        other.send("GET /message HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(other.read().hasSuffix("Hello world"))
    }

    @Test func headersLargerThanTheLimitGet431() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /message HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n")
        #expect(client.read().hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
    }

    @Test func aSlowClientGets408AndDoesNotStallOthers() throws {
        var limits = ServerLimits()
        limits.headerTimeoutMs = 3_000
        let server = try TestServer(routes, limits: limits)
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        defer { slow.close() }
        slow.send("GET /message HTTP/1.1\r\nHost: x\r\n") // never finished
        let started = Date()
        for _ in 0..<5 {
            let other = try RawClient(port: server.port)
            other.send("GET /message HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(other.read().hasSuffix("Hello world"))
            other.close()
        }
        // Served while the slow client still holds its connection (it is answered 408 only after 3 s).
        #expect(Date().timeIntervalSince(started) < 2.5)
        #expect(slow.read(timeout: 10).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
    }

    @Test func aRequestStartedAfterAnIdleWaitGetsTheHeaderTimeoutNotTheIdleOne() throws {
        var limits = ServerLimits()
        limits.headerTimeoutMs = 300
        limits.idleTimeoutMs = 60_000
        let server = try TestServer(routes, limits: limits)
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        defer { slow.close() }
        Thread.sleep(forTimeInterval: 0.3) // the connection is idle: the server waits for a request to start
        slow.send("GET /message HTTP/1.1\r\nHost: x\r\n") // it starts, and is never finished
        #expect(slow.read(timeout: 10).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
    }

    @Test func anIdleKeepAliveConnectionIsClosedQuietly() throws {
        var limits = ServerLimits()
        limits.idleTimeoutMs = 200
        let server = try TestServer(routes, limits: limits)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /message HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read(until: "Hello world").hasSuffix("Hello world"))
        #expect(client.isClosed(timeout: 3))
    }

    @Test func leadingEmptyLinesAndBareLineFeedsAreAccepted() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("\r\n\r\nGET /message HTTP/1.1\nHost: x\nConnection: close\n\n")
        #expect(client.read().hasSuffix("Hello world"))
    }

    @Test func stopClosesTheListenerAndOpenConnections() throws {
        let server = try TestServer(routes)
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /message HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = client.read(until: "Hello world")
        server.stop()
        #expect(client.isClosed())
        #expect(throws: (any Error).self) { try RawClient(port: server.port) }
    }

    @Test func theListeningSocketIsNotInheritedByChildren() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let listener = try #require(server.server.listeningDescriptor)
        let inode = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(listener)")
        #expect(inode.hasPrefix("socket:["))
        let result = try run("sh", ["-c", "ls -l /proc/$$/fd"])
        #expect(!result.stdout.contains(inode), "\(result.stdout)")
    }
}

@Suite struct HTTPServerPythonTests {
    @Test(.enabled(if: hasCommand("python3"), "needs python3 (apt-get install python3)"))
    func httpClientKeepAliveAndHead() throws {
        let server = try TestServer(routes)
        defer { server.stop() }
        let script = """
            import http.client, sys
            c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
            bodies = []
            for i in range(50):
                c.request("GET", "/message")
                r = c.getresponse()
                bodies.append(r.read().decode())
            c.request("HEAD", "/message")
            r = c.getresponse()
            head = (r.status, r.getheader("Content-Length"), r.read())
            c.request("POST", "/upload", body=b"x" * 100000)
            r = c.getresponse()
            print(len(set(bodies)), bodies[0], head, r.status, r.read().decode())
            """
        let result = try run("python3", ["-c", script, "\(server.port)"])
        #expect(result.stdout == "1 Hello world (200, '11', b'') 201 stored\n", "\(result.stderr)")
        #expect(server.server.journal.count == 52)
    }
}

/// A server started on a socket that already listens (serve listens before it loads its stubs).
@Suite struct EarlyListenerTests {
    @Test func aConnectionQueuedBeforeTheServerStartedIsAnswered() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let client = try RawClient(port: listener.localPort)
        defer { client.close() }
        client.send("GET /early HTTP/1.1\r\nHost: x\r\n\r\n")
        // Nothing answers yet: the connection and its request wait in the kernel.
        #expect(client.read(timeout: 0.2).isEmpty)
        let server = MockServer(stubs: try StubLoader.parse(#"{ "routes": [ { "path": "/early", "body": "waited" } ] }"#, file: "e.json"))
        defer { server.stop() }
        #expect(try server.start(listener: listener) == listener.localPort)
        let answer = client.read(until: "waited", timeout: 5)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK") && answer.hasSuffix("waited"), "\(answer)")
    }
}

@Suite struct HTTPServerStopTests {
    /// `stop()` shuts down the connections open when it is called. One whose client leaves meanwhile is closed by
    /// its own thread, and the descriptor number goes back to the process: a socket opened by anyone else then
    /// (another server's client, in a test run) must not be shut down in its place. A CI run saw exactly that.
    @Test func stopNeverShutsDownADescriptorThatAnotherSocketReused() throws {
        let bystanders = Bystanders()
        let watcher = Thread { bystanders.churn() }
        watcher.start()
        defer { bystanders.finish() }
        for _ in 0..<60 {
            let server = try TestServer(routes)
            var clients: [RawClient] = []
            for _ in 0..<24 {
                let client = try RawClient(port: server.port)
                client.send("GET /message HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = client.read(until: "Hello world")
                clients.append(client)
            }
            let leaving = DispatchSemaphore(value: 0)
            Thread { [clients] in
                for client in clients { client.close() }
                leaving.signal()
            }.start()
            server.stop()
            leaving.wait()
        }
        bystanders.finish()
        #expect(bystanders.broken == 0, "sockets shut down by a server they did not belong to")
    }
}

/// Socket pairs opened and checked without pause on a thread, each used after a while: a pair that was shut down
/// by someone else fails to carry a byte.
private final class Bystanders: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var done = DispatchSemaphore(value: 0)
    private(set) var broken = 0

    func churn() {
        var pairs: [(Int32, Int32)] = []
        while !lock.withLock({ stopped }) {
            var fds: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { continue }
            pairs.append((fds[0], fds[1]))
            if pairs.count > 16 { check(pairs.removeFirst()) }
        }
        pairs.forEach(check)
        done.signal()
    }

    private func check(_ pair: (Int32, Int32)) {
        var byte: UInt8 = 1
        let sent = send(pair.0, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        let received = recv(pair.1, &byte, 1, Int32(MSG_DONTWAIT))
        let back = send(pair.1, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        let returned = recv(pair.0, &byte, 1, Int32(MSG_DONTWAIT))
        if sent != 1 || received != 1 || back != 1 || returned != 1 { lock.withLock { broken += 1 } }
        close(pair.0)
        close(pair.1)
    }

    func finish() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { done.wait() }
    }
}
