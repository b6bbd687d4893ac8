import Foundation
import Testing

@Suite struct MockServerEndToEndTests {
    static let stubs = CLI.packageRoot.appendingPathComponent("Fixtures/stubs")

    @Test func theSeedDemoFetchesTextAndBytesFromTheMockServer() throws {
        let result = try CLI.run(["--port", "0", "--stub", Self.stubs.appendingPathComponent("demo.json").path, CLI.myApp, "fetch"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "MyAppCLI (under test: yes)\nmessage: 200 Hello world\nimage: 200 17 bytes, starts 89504e47\n")
        #expect(result.stderr.contains("sut-launch: mock server: 2 requests, 0 unexpected"))
    }

    @Test func theProgramGetsTheServersNumericURLAndStaysOffProxies() throws {
        let stubs = Self.stubs.appendingPathComponent("routes.json").path
        var environment = CLI.localEnvironment
        environment["NO_PROXY"] = "internal.example"
        let result = try CLI.run(["-q", "--port", "0", "--stub", stubs, CLI.argvDump], environment: environment)
        let dump = try Dump(result.stdout)
        let url = try #require(dump.env["SUT_MOCK_SERVER_URL"])
        #expect(url.hasPrefix("http://127.0.0.1:"))
        #expect(dump.env["NO_PROXY"] == "internal.example,127.0.0.1,localhost")
        #expect(dump.env["no_proxy"] == "internal.example,127.0.0.1,localhost") // one list for both spellings
        // No flag was asked for: argv is left alone, the URL travels in the environment.
        #expect(dump.argv == [CLI.argvDump])
        #expect(dump.env["SUT_AUTOMATION"] == "{\"mockServerURL\":\"\(url)\"}")
        let flagged = try Dump(try CLI.run(["-q", "--port", "0", "--stub", stubs, "-f", "a=1", CLI.argvDump]).stdout)
        let flaggedURL = try #require(flagged.env["SUT_MOCK_SERVER_URL"])
        #expect(flagged.argv.contains("AUTOMATION_{\"mockServerURL\":\"\(flaggedURL)\"}"))
    }

    /// A file larger than FileSystem.readLimit (256 MiB; sparse here, so the test writes nothing) is refused by
    /// name wherever one is read, instead of taking the machine's memory: a stub file (exit 3), a flags file
    /// (usage error), a file a route serves (500 naming it).
    @Test func filesLargerThan256MiBAreRefusedByName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let huge = directory.appendingPathComponent("files/huge.json")
        try FileManager.default.createDirectory(at: huge.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        #expect(truncate(huge.path, 300 << 20) == 0)
        let limit = "larger than 256 MiB: 314572800 bytes"
        let check = try CLI.run(["check", huge.path])
        #expect(check.status == 3 && check.stderr.contains("\(huge.path): cannot read the file (\(limit))"), "\(check.stderr)")
        let flags = try CLI.run(["--flags-file", huge.path, CLI.argvDump])
        #expect(flags.status == 2 && flags.stderr.contains("cannot read the file (\(limit))"), "\(flags.stderr)")
        let routes = try CLI.write(#"{"routes": [{"method": "GET", "path": "/f/*", "files": "files"}]}"#, "routes.json", in: directory)
        let served = try CLI.run([
            "-q", "--port", "0", "--stub", routes, "/bin/sh", "-c", #"curl -s -w ' %{http_code}' "$SUT_MOCK_SERVER_URL/f/huge.json""#,
        ])
        #expect(served.stdout == "cannot serve huge.json: \(limit)\n 500", "\(served.stdout)\(served.stderr)")
    }

    @Test func loginRetriesThroughAResponseSequence() throws {
        let stubs = Self.stubs.appendingPathComponent("routes.json").path
        let result = try CLI.run(["--port", "0", "--stub", stubs, "-a", "simulateUserAlreadyLoggedIn=true", CLI.myApp, "backend-login"])
        #expect(result.stdout.hasSuffix("login: server error 500, retrying\nlogin: 200 {\"token\":\"t\"}\n"))
        // The stub file expects one call to /cities, which never came: the program passed, the run fails.
        #expect(result.status == 4)
        #expect(
            result.stderr.contains("sut-launch: error: mock-server checks failed: route GET /cities (\(stubs):4): expected 1 call, got 0"))
        #expect(result.stderr.contains("  2× POST /login"))
    }

    @Test func unexpectedRequestsAreListedAndFailTheRunUnderStrict() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = directory.appendingPathComponent("only-message.json")
        try #"{ "routes": [ { "method": "GET", "path": "/message", "body": "Hello world" } ] }"#.write(
            to: stubs, atomically: true, encoding: .utf8)
        let lenient = try CLI.run(["--port", "0", "--stub", stubs.path, CLI.myApp, "fetch"])
        #expect(lenient.status == 1) // MyAppCLI's own exit: /image answered 404
        #expect(
            lenient.stderr.contains(
                "unexpected: GET /image\n    Nearest stub: GET /message (\(stubs.path):1)\n      url: expected /message, got /image"))

        let report = directory.appendingPathComponent("report.json")
        let strict = try CLI.run([
            "--strict", "--port", "0", "--report", report.path, "--stub", stubs.path, "--flags-in", "env",
            "/bin/sh", "-c", "curl -s $SUT_MOCK_SERVER_URL/message; curl -s -o /dev/null $SUT_MOCK_SERVER_URL/nope",
        ])
        #expect(strict.stdout == "Hello world")
        #expect(strict.status == 4)
        #expect(strict.stderr.contains("mock-server checks failed: unexpected request GET /nope"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let server = try #require(json["mockServer"] as? [String: Any])
        #expect(server["totalRequests"] as? Int == 2)
        #expect((server["unexpected"] as? [[String: Any]])?.first?["url"] as? String == "/nope")
        #expect(json["exitCode"] as? Int == 4)
        #expect(json["programExitCode"] as? Int == 0)
    }

    /// Found by a hostile review: a near miss printed the decoded query value and header raw, so any client
    /// could set the terminal's title or forge a line of the run's summary in a CI log.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func nearMissesInTheSummaryEscapeControlCharacters() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"{"routes":[{"method":"GET","path":"/cities","query":{"q":"Milano"},"headers":{"egon-route":"true"}}]}"#,
            "stubs.json", in: directory)
        let result = try CLI.run([
            "--port", "0", "--stub", stubs, "/bin/sh", "-c",
            #"curl -s -o /dev/null -H "egon-route: tr$(printf '\033')ue" "$SUT_MOCK_SERVER_URL/cities?q=%1b%5d0;T%07%0d%0a::error::forged""#,
        ])
        #expect(
            result.stderr.contains(#"query q: expected equal to "Milano", got "\u{1B}]0;T\u{7}\r\n::error::forged""#), "\(result.stderr)")
        #expect(result.stderr.contains(#"got "tr\u{1B}ue""#))
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\r"))
        #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("::error::") })
    }

    @Test func theJournalIsWrittenWhenTheProgramTimesOut() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("journal.json")
        let stubs = Self.stubs.appendingPathComponent("routes.json").path
        let result = try CLI.run([
            "-q", "--timeout", "1s", "--kill-grace", "200ms", "--port", "0", "--stub", stubs, "--journal", journal.path,
            "--flags-in", "env", "/bin/sh", "-c", "curl -s -o /dev/null $SUT_MOCK_SERVER_URL/message; sleep 30",
        ])
        #expect(result.status == 124)
        let text = try String(contentsOf: journal, encoding: .utf8)
        #expect(text.hasPrefix("{\"total\":1,\"dropped\":0,\"requests\":["))
        #expect(text.contains("\"path\":\"/message\""))
        #expect(text.contains("\"stub\":{\"id\":\"\(stubs):3\",\"name\":\"GET /message\"}"))
    }

    @Test func aBadStubFileExits3BeforeAnythingIsLaunched() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = directory.appendingPathComponent("bad.json")
        try "{ \"routes\": [\n  { \"path\": \"/a\", \"stauts\": 200 }\n] }".write(to: stubs, atomically: true, encoding: .utf8)
        let marker = directory.appendingPathComponent("launched")
        let result = try CLI.run(["--stub", stubs.path, "/usr/bin/touch", marker.path])
        #expect(result.status == 3)
        #expect(result.stderr == "sut-launch: error: \(stubs.path):2:19: unknown key \"stauts\" in a route; did you mean \"status\"?\n")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        let check = try CLI.run(["check", stubs.path, Self.stubs.appendingPathComponent("routes.json").path])
        #expect(check.status == 3)
        #expect(check.stdout == "ok: \(Self.stubs.appendingPathComponent("routes.json").path): 8 routes\n")
        #expect(check.stderr.hasPrefix("sut-launch: error: \(stubs.path):2:19: unknown key"))
        #expect(try CLI.run(["check", Self.stubs.appendingPathComponent("demo.json").path]).status == 0)
    }

    /// serve listens before it loads its stubs (MockServerTests has the deterministic test: a connection queued
    /// before the server starts is answered): here a client that polls from the start is answered, and a stub
    /// file's problem is still reported before a busy port.
    @Test func aClientThatConnectsWhileTheStubsLoadIsAnswered() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let routes =
            (0..<40_000).map { "{ \"path\": \"/r/\($0)/{x}\", \"body\": \"r\" }" } + [#"{ "path": "/message", "body": "Hello world" }"#]
        let stubs = try CLI.write("{ \"routes\": [" + routes.joined(separator: ",\n") + "] }", "big.json", in: directory)
        let port = try CLI.freePort()
        var answer = ""
        _ = try CLI.run(["serve", "-q", "--port", String(port), stubs]) { process, _ in
            defer { process.interrupt() }
            var connected: Int32?
            let deadline = Date().addingTimeInterval(10)
            while connected == nil, Date() < deadline {
                connected = CLI.loopbackSocket(port)
                if connected == nil { usleep(1_000) }
            }
            guard let client = connected else { return }
            defer { close(client) }
            _ = Array("GET /message HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes {
                send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: received, as: UTF8.self).hasSuffix("Hello world"), Date() < deadline.addingTimeInterval(20) {
                var pfd = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 100) > 0 else { continue }
                let count = recv(client, &buffer, buffer.count, 0)
                if count <= 0 { break }
                received += buffer[0..<count]
            }
            answer = String(decoding: received, as: UTF8.self)
        }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK") && answer.hasSuffix("Hello world"), "\(answer)")

        let bad = try CLI.write(#"{ "routes": [ { "path": "/a", "stauts": 200 } ] }"#, "bad.json", in: directory)
        let holder = try #require(CLI.loopbackSocket(port, listening: true), "port \(port) taken meanwhile")
        defer { close(holder) }
        let refused = try CLI.run(["serve", "--port", String(port), bad])
        #expect(
            refused.status == 3 && refused.stderr.contains("bad.json:1:31: unknown key \"stauts\""), "\(refused.status) \(refused.stderr)")
        let busy = try CLI.run(["serve", "--port", String(port), stubs])
        #expect(busy.stderr.contains("cannot start the mock server on 127.0.0.1:\(port)"), "\(busy.stderr)")
    }

    @Test func aBusyPortIsExplained() throws {
        let first = try CLI.run(["serve", "--help"])
        #expect(first.stdout.contains("sut-launch serve [options] [STUBS...]"))
        let stubs = Self.stubs.appendingPathComponent("demo.json").path
        var busy = ""
        var status: Int32 = 0
        _ = try CLI.run(["serve", "--port", "0", stubs]) { process, stdout in
            _ = CLI.eventually { ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").hasSuffix("\n") }
            let url = try String(contentsOf: stdout, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let port = String(url.split(separator: ":").last ?? "")
            let second = try CLI.run(["--port", port, "--stub", stubs, CLI.argvDump])
            busy = second.stderr
            status = second.status
            process.interrupt()
        }
        #expect(status == 125)
        #expect(busy.contains("cannot start the mock server on 127.0.0.1:"))
        #expect(busy.contains("bind: Address already in use; pass --port 0 for a free port"), "\(busy)")
    }

    /// WireMock clients end a server with POST /__admin/shutdown: serve exits as on Ctrl-C, journal written.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func adminShutdownEndsServeAndWritesItsJournal() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("journal.json")
        let stubs = try CLI.write(#"{"routes": [{"method": "GET", "path": "/x", "body": "x"}]}"#, "r.json", in: directory)
        var answers: [String] = []
        let result = try CLI.run(["serve", "-q", "--port", "0", "--journal", journal.path, stubs]) { _, stdout in
            _ = CLI.eventually { ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").hasSuffix("\n") }
            let url = try String(contentsOf: stdout, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            answers.append(try CLI.output(of: ["curl", "-s", "\(url)/x"]))
            answers.append(try CLI.output(of: ["curl", "-s", "-w", " %{http_code}", "-X", "POST", "\(url)/__admin/shutdown"]))
        }
        #expect(answers == ["x", "{} 200"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: journal, encoding: .utf8).contains("\"path\":\"/x\""))
    }

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func serveAnswersUntilInterruptedAndWritesItsJournal() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("journal.json")
        var answer = ""
        let result = try CLI.run(["serve", "--port", "0", "--journal", journal.path, Self.stubs.appendingPathComponent("routes.json").path])
        { process, stdout in
            _ = CLI.eventually { ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").hasSuffix("\n") }
            let url = try String(contentsOf: stdout, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.environment = CLI.localEnvironment
            curl.arguments = ["curl", "-s", "\(url)/message"]
            let pipe = Pipe()
            curl.standardOutput = pipe
            try curl.run()
            answer = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            curl.waitUntilExit()
            process.interrupt()
        }
        #expect(answer == "Hello world")
        #expect(result.stdout.hasPrefix("http://127.0.0.1:"))
        #expect(result.stderr.contains("GET /message → 200 (GET /message)"))
        // routes.json expects one call to /cities: serve reports it and exits 4.
        #expect(result.status == 4)
        #expect(try String(contentsOf: journal, encoding: .utf8).contains("\"path\":\"/message\""))
    }
}

/// serve under attack and at its end (issue 10): a signal stops it whatever is in flight, the journal is
/// private and holds no secrets unless asked.
@Suite struct ServeSafetyEndToEndTests {
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func sigtermStopsServeWithARequestInFlightAndWritesAPrivateRedactedJournal() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = directory.appendingPathComponent("slow.json")
        try #"{ "routes": [ { "path": "/slow", "delayMs": 30000, "body": "late" }, { "path": "/fast", "body": "ok" } ] }"#
            .write(to: stubs, atomically: true, encoding: .utf8)
        let journal = directory.appendingPathComponent("journal.json")
        var stoppedIn: Double = 0
        let result = try CLI.run(["serve", "--port", "0", "--journal", journal.path, stubs.path]) { process, out in
            #expect(CLI.eventually { ((try? String(contentsOf: out, encoding: .utf8)) ?? "").hasSuffix("\n") })
            let url = try String(contentsOf: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.environment = CLI.localEnvironment
            curl.arguments = ["curl", "-s", "-m", "60", "-H", "Authorization: Bearer s3cret", "\(url)/fast", "\(url)/slow"]
            curl.standardOutput = FileHandle.nullDevice
            try curl.run()
            usleep(300_000)
            let started = Date()
            process.terminate()
            process.waitUntilExit()
            stoppedIn = Date().timeIntervalSince(started)
            curl.terminate()
        }
        #expect(result.status == 0)
        #expect(stoppedIn < 5, "serve took \(stoppedIn) s to stop with a 30 s response in flight")
        let attributes = try FileManager.default.attributesOfItem(atPath: journal.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOf: journal, encoding: .utf8)
        #expect(text.contains("\"Authorization\":\"[redacted]\"") && !text.contains("s3cret"))
    }

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func noAdminAndJournalSecretsAreOptions() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = directory.appendingPathComponent("s.json")
        try #"{ "routes": [ { "path": "/x", "body": "ok" } ] }"#.write(to: stubs, atomically: true, encoding: .utf8)
        let journal = directory.appendingPathComponent("j.json")
        let result = try CLI.run([
            "-q", "--port", "0", "--no-admin", "--journal-secrets", "--journal", journal.path, "--stub", stubs.path,
            "sh", "-c",
            "curl -s -o /dev/null -w '%{http_code} ' $SUT_MOCK_SERVER_URL/__admin/health; curl -s -H 'Cookie: k=v' $SUT_MOCK_SERVER_URL/x",
        ])
        #expect(result.stdout == "404 ok")
        #expect(try String(contentsOf: journal, encoding: .utf8).contains("\"Cookie\":\"k=v\""))
    }
}

@Suite struct EmptyServeEndToEndTests {
    /// serve without stub files starts an empty server that clients fill through the admin API.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func serveWithoutStubsStartsEmptyAndTakesMappings() throws {
        let result = try CLI.run(["serve", "--port", "0"]) { process, out in
            #expect(CLI.eventually { ((try? String(contentsOf: out, encoding: .utf8)) ?? "").hasSuffix("\n") })
            let url = try String(contentsOf: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            func curl(_ arguments: [String]) throws -> String { try CLI.output(of: ["curl", "-s"] + arguments) }
            let added = try curl([
                "-X", "POST", "-H", "Content-Type: application/json", "-d",
                #"{"request":{"urlPath":"/hi"},"response":{"body":"hello"}}"#, "\(url)/__admin/mappings",
            ])
            #expect(
                added.range(of: #"\{"id":"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}""#, options: .regularExpression)
                    != nil, "\(added)")
            #expect(try curl(["\(url)/hi"]) == "hello")
            process.terminate()
        }
        #expect(result.status == 0)
    }
}

@Suite struct LenientStubsEndToEndTests {
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func lenientStubsSkipWhatCannotLoadWithOneLineEach() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(#"{"request":{"urlPath":"/ok"},"response":{"body":"ok"}}"#, "mappings/a.json", in: directory)
        _ = try CLI.write(
            #"{"request":{"urlPath":"/t"},"response":{"body":"x","transformers":["body-transformer"]}}"#, "mappings/b.json", in: directory)
        _ = try CLI.write(
            #"{"mappings":[{"request":{"urlPath":"/m1"},"response":{"body":"m1"}},{"request":{"urlPath":"/m2"},"response":{"body":"m2","transformerParameters":{}}}]}"#,
            "mappings/c.json", in: directory)
        let refused = try CLI.run(["--port", "0", "--stub", directory.path, "true"])
        #expect(
            refused.status == 3 && refused.stderr.contains("b.json:1:") && refused.stderr.contains("\"body-transformer\" is not supported"))
        let lenient = try CLI.run([
            "-q", "--port", "0", "--lenient-stubs", "--stub", directory.path,
            "sh", "-c", "curl -s $SUT_MOCK_SERVER_URL/ok; curl -s $SUT_MOCK_SERVER_URL/m1",
        ])
        #expect(lenient.status == 0 && lenient.stdout == "okm1")
        let warnings = lenient.stderr.split(separator: "\n").filter { $0.contains("warning: skipped") }
        #expect(warnings.count == 2, "\(lenient.stderr)")
    }
}

@Suite struct GlobalResponseTemplatingEndToEndTests {
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func everyWireMockResponseIsTemplatedOnlyWhenAsked() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(#"{"request":{"urlPath":"/t"},"response":{"body":"at {{request.path}}"}}"#, "mappings/a.json", in: directory)
        let script = #"""
            curl -s $SUT_MOCK_SERVER_URL/t; echo
            curl -s -X POST -H 'Content-Type: application/json' -o /dev/null \
              -d '{"request":{"urlPath":"/added"},"response":{"body":"{{request.method}} {{request.path}}"}}' $SUT_MOCK_SERVER_URL/__admin/mappings
            curl -s $SUT_MOCK_SERVER_URL/added
            """#
        let plain = try CLI.run(["-q", "--admin-writes", "trust", "--port", "0", "--stub", directory.path, "sh", "-c", script])
        #expect(
            plain.status == 0 && plain.stdout == "at {{request.path}}\n{{request.method}} {{request.path}}",
            "\(plain.stdout)\(plain.stderr)")
        let templated = try CLI.run([
            "-q", "--admin-writes", "trust", "--port", "0", "--global-response-templating", "--stub", directory.path, "sh", "-c", script,
        ])
        #expect(templated.status == 0 && templated.stdout == "at /t\nGET /added", "\(templated.stdout)\(templated.stderr)")
        // A template that cannot compile is refused when the file loads, naming it (exit 3), only under the option.
        _ = try CLI.write(#"{"request":{"urlPath":"/b"},"response":{"body":"{{#lookup x}}{{/lookup}}"}}"#, "mappings/b.json", in: directory)
        let refused = try CLI.run(["--port", "0", "--global-response-templating", "--stub", directory.path, "true"])
        #expect(
            refused.status == 3 && refused.stderr.contains("b.json:1: mapping")
                && refused.stderr.contains("the block {{#lookup}} is not supported"), "\(refused.stderr)")
        #expect(try CLI.run(["-q", "--port", "0", "--stub", directory.path, "true"]).status == 0)
    }
}
