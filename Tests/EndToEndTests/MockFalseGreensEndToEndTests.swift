import Foundation
import Testing

/// r5a: requests a run's mock server received and did not answer as asked were counted as served, or not at all, and a
/// `--strict` run exited 0. Each is replayed with real clients (curl, python3).
@Suite(.enabled(if: CLI.hasCommand("curl") && CLI.hasCommand("python3"), "needs curl and python3 (apt-get install curl python3)"))
struct MockFalseGreensEndToEndTests {
    /// r5a-12: a mapping whose answer could not be made (a template a request value breaks: 400; the template budget
    /// spent: 500; a `files` route's file over 256 MiB: 500) is unexpected, with the reason, in the summary, the journal
    /// and the report: the strict run fails (it passed with `1× ANY /r`, `failures: []`).
    @Test func anAnswerThatCouldNotBeMadeFailsAStrictRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            #"{"mappings":[{"request":{"urlPath":"/r"},"response":{"status":200,"body":"{{randomInt lower=0 upper=request.query.n.[0]}}","transformers":["response-template"]}},"#
                + #"{"request":{"urlPath":"/big"},"response":{"status":200,"body":"{{range 1 100000000}}","transformers":["response-template"]}}]}"#,
            "tp/mappings/m.json", in: directory)
        let report = directory.appendingPathComponent("r.json").path
        let journal = directory.appendingPathComponent("j.json").path
        let result = try CLI.run([
            "--port", "0", "--strict", "--report", report, "--journal", journal, "--stub", directory.appendingPathComponent("tp").path,
            "sh", "-c", #"curl -s -o /dev/null "$SUT_MOCK_SERVER_URL/r?n=0"; curl -s -o /dev/null "$SUT_MOCK_SERVER_URL/big"; exit 0"#,
        ])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("2 requests, 2 unexpected"), "\(result.stderr)")
        #expect(result.stderr.contains("could not answer: template: {{randomInt}}: lower (0) must be below upper (0)"), "\(result.stderr)")
        #expect(result.stderr.contains("could not answer: template: this answer would spend more than"), "\(result.stderr)")
        let written = try String(contentsOfFile: report, encoding: .utf8)
        #expect(written.contains("unexpected request GET /r?n=0") && written.contains("unexpected request GET /big"), "\(written)")
        #expect(try String(contentsOfFile: journal, encoding: .utf8).contains("could not answer"))

        // A file the route serves that is over its cap: the strict run fails naming it.
        _ = try CLI.write("", "fr/images/small.txt", in: directory)
        let big = directory.appendingPathComponent("fr/images/big.bin").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: 300 << 20) // sparse: no 300 MB written
        try handle.close()
        let stubs = try CLI.write(#"{"routes":[{"path":"/images/**","files":"./images"}]}"#, "fr/s.json", in: directory)
        let files = try CLI.run([
            "--port", "0", "--strict", "--stub", stubs, "sh", "-c", #"curl -s -o /dev/null "$SUT_MOCK_SERVER_URL/images/big.bin"; exit 0"#,
        ])
        #expect(files.status == 4 && files.stderr.contains("could not answer: cannot serve big.bin"), "\(files.stderr)")
    }

    /// r5a-5: a HEAD answered by a GET route is not a GET: it does not satisfy the route's `expect`, and the summary shows
    /// it as HEAD (it showed `1× GET /download` and passed).
    @Test func aHeadRequestIsNotCountedAsTheGetItsRouteExpects() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"{"routes":[{"method":"GET","path":"/download","body":"payload","expect":{"times":1}}]}"#, "hd.json", in: directory)
        let head = try CLI.run([
            "--port", "0", "--strict", "--stub", stubs, "sh", "-c", #"curl -sI "$SUT_MOCK_SERVER_URL/download" | head -1"#,
        ])
        #expect(head.status == 4, "\(head.stderr)")
        #expect(head.stdout.hasPrefix("HTTP/1.1 200"), "\(head.stdout)") // still answered, as curl -I expects
        #expect(
            head.stderr.contains("1× HEAD, answered by GET /download") && head.stderr.contains("expected 1 call, got 0"), "\(head.stderr)")
        let get = try CLI.run(["--port", "0", "--strict", "--stub", stubs, "sh", "-c", #"curl -s "$SUT_MOCK_SERVER_URL/download""#])
        #expect(get.status == 0 && get.stderr.contains("1× GET /download"), "\(get.stderr)")
    }

    /// r5a-1: requests pipelined behind a fault that ends the connection are journaled and unexpected (they were never
    /// counted: "1 request, 0 unexpected", exit 0); behind a slow answer the client stopped waiting for, the run's wait
    /// ends in a failure under --strict, not a warning beside exit 0.
    @Test func requestsPipelinedBehindAFaultOrASlowAnswerFailAStrictRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"{"routes":[{"method":"GET","path":"/reset","fault":"connection-reset"},{"method":"GET","path":"/empty","fault":"empty-response"},"#
                + #"{"method":"GET","path":"/mal","fault":"malformed-chunk"},{"method":"GET","path":"/rnd","fault":"random-data"},"#
                + #"{"method":"GET","path":"/slow","delayMs":3000,"body":"s"}]}"#, "f.json", in: directory)
        let script = try CLI.write(
            """
            import os, socket, sys, time
            port = int(os.environ["SUT_MOCK_SERVER_URL"].rsplit(":", 1)[1])
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(("GET %s HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET /unexpected-after HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n"
                       "DELETE /users/1 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" % sys.argv[1]).encode())
            time.sleep(float(sys.argv[2]))
            s.close()
            """, "pipe.py", in: directory)
        for fault in ["/reset", "/empty", "/mal", "/rnd"] {
            let result = try CLI.run(["--port", "0", "--strict", "--stub", stubs, "python3", script, fault, "0.5"])
            #expect(result.status == 4, "\(fault): \(result.stderr)")
            #expect(result.stderr.contains("3 requests, 2 unexpected"), "\(fault): \(result.stderr)")
            #expect(
                result.stderr.contains("unexpected: DELETE /users/1") && result.stderr.contains("it came pipelined behind GET \(fault)"))
        }
        let slow = try CLI.run(["--port", "0", "--strict", "--stub", stubs, "python3", script, "/slow", "0"])
        #expect(slow.status == 4, "\(slow.stderr)")
        #expect(slow.stderr.contains("✗ a request was still arriving or being answered 2s after the program ended"), "\(slow.stderr)")
    }

    /// r5a-2: a client that pins another key completes the handshake, then closes without a request (no alert): counted
    /// as unexpected, as mock-server.md promises, directly and through interception; a client that asks is not.
    @Test func aTLSClientThatClosesAfterItsHandshakeWithoutARequestIsUnexpected() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes":[{"method":"GET","path":"/ok","body":"ok"}]}"#, "s.json", in: directory)
        let pin = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        let pinned = try CLI.run([
            "--https", "--strict", "--port", "0", "--stub", stubs, "sh", "-c",
            "curl -s --pinnedpubkey '\(pin)' \"$SUT_MOCK_SERVER_URL/ok\"; exit 0",
        ])
        #expect(pinned.status == 4, "\(pinned.stderr)")
        #expect(pinned.stderr.contains("the client closed the connection without a request"), "\(pinned.stderr)")
        let intercepted = try CLI.run([
            "--strict", "--port", "0", "--intercept", "api.example.com", "--stub", stubs, "sh", "-c",
            "curl -s --pinnedpubkey '\(pin)' https://api.example.com/ok; exit 0",
        ])
        #expect(intercepted.status == 4 && intercepted.stderr.contains("without a request"), "\(intercepted.stderr)")
        let trusting = try CLI.run([
            "--https", "--strict", "--port", "0", "--stub", stubs, "sh", "-c",
            #"curl -s "$SUT_MOCK_SERVER_URL/ok"; curl -s "$SUT_MOCK_SERVER_URL/ok""#,
        ])
        #expect(trusting.status == 0 && trusting.stderr.contains("2 requests, 0 unexpected"), "\(trusting.stderr)")
    }

    /// r5a-8: admin API calls the server refuses (an unknown endpoint: 404; a foreign Host: 403) are unexpected, as a
    /// refused `/__admin/shutdown` is: what the program asked of the server did not happen.
    @Test func refusedAdminCallsFailAStrictRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes":[{"method":"GET","path":"/ok","body":"ok"}]}"#, "s.json", in: directory)
        let result = try CLI.run([
            "--port", "0", "--strict", "--stub", stubs, "sh", "-c",
            #"curl -s "$SUT_MOCK_SERVER_URL/__admin/nonexistent"; curl -s -H "Host: evil" "$SUT_MOCK_SERVER_URL/__admin/mappings"; curl -s "$SUT_MOCK_SERVER_URL/__admin/health""#,
        ])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("refused 404: unknown admin endpoint GET /__admin/nonexistent"), "\(result.stderr)")
        #expect(result.stderr.contains("refused 403: the admin API answers requests for 127.0.0.1 or localhost only"), "\(result.stderr)")
        #expect(result.stderr.contains("2 unexpected"), "\(result.stderr)") // the health check is no refusal
    }
}
