import Foundation
import Testing

/// Record and replay against a backend no one here wrote (issue 27): Python's http.server serving files, and a small
/// Python backend answering gzip bodies. Recorded with `--record-from … --into DIR`, replayed with `--stub DIR
/// --strict`: the program sees the same bytes; a request that was not recorded fails the replay.
@Suite(.enabled(if: CLI.hasCommand("python3"), "needs python3 as the real backend (apt-get install python3)"))
struct RecordReplayEndToEndTests {
    /// A backend on a free port: Python's http.server for files, plus `/gz` answering a gzip body and `/echo` (POST)
    /// answering its JSON body back. Prints its port first.
    static let backendScript = #"""
        import gzip, http.server, socketserver, sys, os
        os.chdir(sys.argv[1])
        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                if self.path == "/gz":
                    body = gzip.compress(b'{"compressed": true}', mtime=0)
                    self.send_response(200); self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Encoding", "gzip"); self.send_header("Content-Length", str(len(body)))
                    self.send_header("Set-Cookie", "session=s3cr3t"); self.end_headers(); self.wfile.write(body)
                else:
                    super().do_GET()
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(201); self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    final class Backend {
        let process = Process()
        let port: Int
        init(files: URL) throws {
            let script = files.appendingPathComponent("backend.py")
            try RecordReplayEndToEndTests.backendScript.write(to: script, atomically: true, encoding: .utf8)
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, files.path]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice // swift test waits for every holder of its own pipes
            try process.run()
            let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        /// SIGKILL: the test process may have SIGTERM blocked, and a child inherits the mask.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        deinit { stop() }
        var url: String { "http://127.0.0.1:\(port)" }
    }

    /// The program: fetches what the backend serves through the mock server and prints it (gzip bytes as hex).
    static let program = #"""
        set -e
        curl -sS "$SUT_MOCK_SERVER_URL/data.json"; echo
        curl -sS "$SUT_MOCK_SERVER_URL/gz" | od -An -tx1 | tr -d ' \n'; echo
        curl -sS -X POST -H 'Content-Type: application/json' -d '{"b":[1,2],"a":1}' "$SUT_MOCK_SERVER_URL/echo"; echo
        curl -sS -o /dev/null -w '%{http_code}\n' "$SUT_MOCK_SERVER_URL/missing.txt"
        """#

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func aRecordingReplaysByteForByteAndStrictly() throws {
        let files = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: files) }
        try #"{"cities": ["Milano", "Zürich"]}"#.write(to: files.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        let backend = try Backend(files: files)
        #expect(backend.port > 0)
        let recording = files.appendingPathComponent("recording").path
        let recorded = try CLI.run(["--port", "0", "--record-from", backend.url, "--into", recording, "--", "sh", "-c", Self.program])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stderr.contains("recorded 4 mappings from \(backend.url) into \(recording)"))
        #expect(!recorded.stderr.contains("not called"), "\(recorded.stderr)") // the recorded mappings are no unmet routes
        let lines = recorded.stdout.split(separator: "\n")
        #expect(lines.first == #"{"cities": ["Milano", "Zürich"]}"#)
        #expect(lines.last == "404")
        let mappings = try FileManager.default.contentsOfDirectory(atPath: recording + "/mappings").sorted()
        #expect(mappings.count == 4 && mappings.contains { $0.hasPrefix("get-gz-") } && mappings.contains { $0.hasPrefix("post-echo-") })
        let gzipMapping = try String(
            contentsOfFile: recording + "/mappings/" + mappings.first { $0.hasPrefix("get-gz-") }!, encoding: .utf8)
        #expect(
            gzipMapping.contains("\"Content-Encoding\" : \"gzip\"") && gzipMapping.contains(".json.gz") && !gzipMapping.contains("s3cr3t"))

        backend.stop() // the replay cannot reach the backend: every answer comes from the recording
        let replayed = try CLI.run(["--port", "0", "--stub", recording, "--strict", "--", "sh", "-c", Self.program])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == recorded.stdout)
        let other = try CLI.run(["--port", "0", "--stub", recording, "--strict", "--", "sh", "-c", #"curl -sS "$SUT_MOCK_SERVER_URL/new""#])
        #expect(other.status == 4)
        #expect(other.stderr.contains("unexpected request GET /new"))
    }

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func aSuiteRecordsWhatItsScenariosAsk() throws {
        let files = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: files) }
        try #"{"ok": true}"#.write(to: files.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        let backend = try Backend(files: files)
        defer { backend.stop() }
        let feature = try CLI.write(
            """
            Feature: recorded
              Scenario: asks the backend
                When I run "curl -sS ${SUT_MOCK_SERVER_URL}/data.json"
                Then I see "true}"
              Scenario: asks nothing
                When I run "echo quiet"
                Then I see "quiet"

            """, "r.feature", in: files)
        let recording = files.appendingPathComponent("rec").path
        let result = try CLI.run(["test", "--record-from", backend.url, "--into", recording, feature])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let mappings = try FileManager.default.contentsOfDirectory(atPath: recording + "/mappings")
        #expect(mappings.count == 1 && mappings[0].hasPrefix("get-data.json-"), "\(mappings)")
    }

    /// Third attack, F10: two scenarios got different answers to the same request and recorded one name: the second
    /// replaced the first, exit 0. The second is refused, named, and fails its scenario; the same answer again is fine.
    @Test func twoScenariosRecordingDifferentAnswersToOneRequestIsAFailureNotAReplacement() throws {
        let files = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: files) }
        let data = files.appendingPathComponent("data.json")
        try #"{"v": 1}"#.write(to: data, atomically: true, encoding: .utf8)
        let backend = try Backend(files: files)
        defer { backend.stop() }
        let feature = try CLI.write(
            """
            Feature: recorded
              Scenario: first
                When I run "curl -sS ${SUT_MOCK_SERVER_URL}/data.json"
                Then I see "1}"
              Scenario: second, the backend changed
                When I run "sh -c 'printf %s 2222 > \(data.path); curl -sS ${SUT_MOCK_SERVER_URL}/data.json'"
                Then I see "2222"

            """, "r.feature", in: files)
        let recording = files.appendingPathComponent("rec").path
        let result = try CLI.run(["test", "--record-from", backend.url, "--into", recording, feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("was recorded earlier in this run by another server"), "\(result.stdout)")
        let mappings = try FileManager.default.contentsOfDirectory(atPath: recording + "/mappings")
        #expect(mappings.count == 1, "\(mappings)")
        let kept = try String(contentsOfFile: recording + "/mappings/" + mappings[0], encoding: .utf8)
        #expect(kept.contains("v") && !kept.contains("2222"), "the first recording was replaced: \(kept)")
    }

    /// r9a B13, B14: a multipart body was recorded as `equalTo` with the boundary curl draws for each request (the
    /// replay of the same command 404ed), and a JSON body with an integer past 64 bits as an `equalToJson` the loader
    /// refuses (the recording failed, its root did not load). Both are recorded as patterns that load and replay.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func multipartAndWideIntegerBodiesRecordPatternsThatLoadAndReplay() throws {
        let files = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: files) }
        let backend = try Backend(files: files)
        defer { backend.stop() }
        let program = #"""
            set -e
            curl -sS -o /dev/null -w '%{http_code}\n' -F f=v -F g=@/dev/null "$SUT_MOCK_SERVER_URL/form"
            curl -sS -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' -d '{"id":100000000000000000001}' "$SUT_MOCK_SERVER_URL/big"
            """#
        let recording = files.appendingPathComponent("rec").path
        let recorded = try CLI.run(["--port", "0", "--record-from", backend.url, "--into", recording, "--", "sh", "-c", program])
        #expect(recorded.status == 0 && recorded.stdout == "201\n201\n", "\(recorded.stdout)\(recorded.stderr)")
        let mappings = try FileManager.default.contentsOfDirectory(atPath: recording + "/mappings")
        let texts = try mappings.map { try String(contentsOfFile: recording + "/mappings/" + $0, encoding: .utf8) }
        #expect(
            texts.contains { $0.contains(#""anything" : "anything""#) } && !texts.contains { $0.contains(#""equalTo" : "---"#) }, "\(texts)"
        )
        #expect(texts.contains { $0.contains(#""equalTo" : "{\"id\":100000000000000000001}""#) }, "\(texts)")
        let checked = try CLI.run(["check", recording])
        #expect(checked.status == 0, "\(checked.stderr)")
        backend.stop()
        let replayed = try CLI.run(["--port", "0", "--stub", recording, "--strict", "--", "sh", "-c", program])
        #expect(replayed.status == 0 && replayed.stdout == "201\n201\n", "\(replayed.stdout)\(replayed.stderr)")
    }

    @Test func anUnreachableBackendFailsTheRunNamingIt() throws {
        let recording = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: recording) }
        let program = #"curl -s -o /dev/null -w '%{http_code}\n' "$SUT_MOCK_SERVER_URL/x""#
        let result = try CLI.run([
            "--port", "0", "--record-from", "http://127.0.0.1:9", "--into", recording.path, "--", "sh", "-c", program,
        ])
        #expect(result.stdout == "502\n")
        #expect(result.status == 4)
        #expect(result.stderr.contains("forward to a backend failed: GET /x: cannot reach http://127.0.0.1:9"))
    }

    @Test func recordingOptionsAreCheckedTogether() throws {
        let cases: [([String], String)] = [
            (["--record-from", "http://h", "true"], "--record-from needs --into DIR, where the mappings are written"),
            (["--into", "d", "true"], "--into is where a recording goes"),
            (
                ["--record-from", "ftp://h", "--into", "d", "true"],
                "--record-from \"ftp://h\" is not a backend URL: it needs http:// or https://"
            ),
            (["--record-missing", "--into", "d", "true"], "--record-missing records what --proxy-unmatched URL forwards: add it"),
            // Third attack, F9: the run's own Host (a random port) captured: the recording could never replay.
            (
                ["--record-from", "http://h", "--into", "d", "--capture-header", "host", "true"],
                "Host names the mock server itself (its port changes every run)"
            ),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
}
