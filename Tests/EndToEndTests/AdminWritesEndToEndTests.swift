import Foundation
import Testing

/// Attack r5c-8: the program under test added a catch-all mapping through its run's admin API, and its unexpected
/// requests then passed `--strict` and `Then the server received no unexpected requests`. A run's server is read-only
/// to the program now (403, unexpected) unless `--admin-writes allow` (writes answered, the answers of its mappings
/// unexpected) or `trust` (those answers are calls, marked). `serve` answers writes as before.
@Suite struct AdminWritesEndToEndTests {
    static let catchAll = #"{"request":{"method":"ANY","urlPattern":".*"},"response":{"status":200},"priority":1}"#
    static let stub = #"{"routes":[{"method":"GET","path":"/a","status":200}]}"#
    /// The reproduction: add the catch-all, then a request no stub of the run's matches; prints both statuses.
    static let program =
        "curl -s -o /dev/null -w '%{http_code} ' -H content-type:application/json -d @catch.json $SUT_MOCK_SERVER_URL/__admin/mappings; "
        + "curl -s -o /dev/null -w '%{http_code}' $SUT_MOCK_SERVER_URL/zzz"

    private func setUp() throws -> URL {
        let directory = try CLI.temporaryDirectory()
        _ = try CLI.write(Self.catchAll, "catch.json", in: directory)
        _ = try CLI.write(Self.stub, "st1.json", in: directory)
        return directory
    }

    /// The launcher's run form: refused by default (exit 4 naming the option), judged under `allow`, trusted under
    /// `trust`; the journal and the report say which answers a mapping the program added made.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func theLauncherRefusesTheProgramsAdminWritesUnlessTold() throws {
        let directory = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let common = ["--strict", "--port", "0", "--stub", "st1.json", "--journal", "j.json", "--report", "r.json"]
        let refused = try CLI.run(common + ["sh", "-c", Self.program], cwd: directory)
        #expect(refused.status == 4 && refused.stdout == "403 404", "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("pass --admin-writes allow") && refused.stderr.contains("unexpected request GET /zzz"))
        #expect(refused.stderr.contains("2 requests, 2 unexpected"), "\(refused.stderr)")

        let allowed = try CLI.run(common + ["--admin-writes", "allow", "sh", "-c", Self.program], cwd: directory)
        #expect(allowed.status == 4 && allowed.stdout == "201 200", "\(allowed.stdout) \(allowed.stderr)")
        #expect(allowed.stderr.contains("answered by a mapping the program added"), "\(allowed.stderr)")
        #expect(allowed.stderr.contains("1× ANY ~.* (a mapping the program added)"), "\(allowed.stderr)")
        let journal = try String(contentsOf: directory.appendingPathComponent("j.json"), encoding: .utf8)
        #expect(journal.contains(#""answeredBy":"a mapping the program added""#), "\(journal)")
        let report = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(report.contains(#""addedByProgram" : true"#) || report.contains(#""addedByProgram":true"#), "\(report)")

        // Lenient: the answer is listed as unexpected, the run passes (as a 404 does without --strict).
        let lenient = try CLI.run(Array(common.dropFirst()) + ["--admin-writes", "allow", "sh", "-c", Self.program], cwd: directory)
        #expect(lenient.status == 0 && lenient.stderr.contains("1 request, 1 unexpected"), "\(lenient.stderr)")

        let trusted = try CLI.run(common + ["--admin-writes", "trust", "sh", "-c", Self.program], cwd: directory)
        #expect(trusted.status == 0 && trusted.stdout == "201 200", "\(trusted.stdout) \(trusted.stderr)")
        #expect(trusted.stderr.contains("1 request, 0 unexpected") && trusted.stderr.contains("(a mapping the program added)"))

        let bad = try CLI.run(["--admin-writes", "open", "--stub", "st1.json", "true"], cwd: directory)
        #expect(bad.status == 2 && bad.stderr.contains("is not one of refuse, allow, trust"), "\(bad.stderr)")
        let noServer = try CLI.run(["--admin-writes", "allow", "true"], cwd: directory)
        #expect(noServer.status == 2, "\(noServer.stderr)")
    }

    /// Every admin write WireMock's API has and sut-launch serves is refused and unexpected on a run's server; the
    /// reads and searches are answered. Each write by itself fails the strict run.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func everyAdminWriteIsRefusedAndEveryReadAnswered() throws {
        let directory = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writes = [
            "-X POST -d @catch.json $U/__admin/mappings", "-X PUT -d @catch.json $U/__admin/mappings/$ID",
            "-X DELETE $U/__admin/mappings/$ID", "-X POST -d '{\"mappings\":[]}' $U/__admin/mappings/import",
            "-X DELETE $U/__admin/mappings",
            "-X POST $U/__admin/mappings/reset", "-X POST $U/__admin/mappings/save",
            "-X POST -d '{}' $U/__admin/mappings/remove-by-metadata",
            "-X POST $U/__admin/reset", "-X DELETE $U/__admin/requests", "-X POST $U/__admin/requests/reset",
            "-X POST $U/__admin/scenarios/reset", "-X PUT -d '{\"state\":\"x\"}' $U/__admin/scenarios/s/state",
            "-X POST -d '{\"fixedDelay\":1}' $U/__admin/settings", "-X PUT -d '{\"fixedDelay\":1}' $U/__admin/settings",
            "-X POST -d '{\"targetBaseUrl\":\"http://127.0.0.1:9\"}' $U/__admin/recordings/start", "-X POST $U/__admin/recordings/stop",
            "-X POST $U/__admin/recordings/snapshot", "-X PATCH $U/__admin/mappings", "-X POST $U/__admin/no-such-endpoint",
        ]
        let id = "$(curl -s $U/__admin/mappings | sed 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/')"
        for write in writes {
            let script =
                "U=$SUT_MOCK_SERVER_URL; ID=\(id); curl -s -o /dev/null -w '%{http_code}' -H content-type:application/json \(write)"
            let result = try CLI.run(["--strict", "--port", "0", "--stub", "st1.json", "sh", "-c", script], cwd: directory)
            #expect(result.status == 4 && result.stdout == "403", "\(write): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("read-only to the program under test"), "\(write): \(result.stderr)")
        }
        let reads = [
            "$U/__admin/mappings", "$U/__admin/requests", "$U/__admin/scenarios", "$U/__admin/health", "$U/__admin/recordings/status",
            "-d '{\"url\":\"/a\"}' $U/__admin/requests/count", "-d '{\"url\":\"/a\"}' $U/__admin/requests/find",
            "-d '{\"url\":\"/b\",\"method\":\"GET\"}' $U/__admin/near-misses/request",
            "-d '{\"matchesJsonPath\":\"$.a\"}' $U/__admin/mappings/find-by-metadata",
        ]
        for read in reads {
            let script = "U=$SUT_MOCK_SERVER_URL; curl -s -o /dev/null -w '%{http_code}' -H content-type:application/json \(read)"
            let result = try CLI.run(["--strict", "--port", "0", "--stub", "st1.json", "sh", "-c", script], cwd: directory)
            #expect(result.status == 0 && result.stdout == "200", "\(read): \(result.stdout) \(result.stderr)")
        }
    }

    /// HOSTILE 5 and 7 on the admin surface: encoded and other-case paths, dot segments, an absolute-form target, a
    /// lower-case method, HEAD and OPTIONS, a foreign Host or Origin, a write pipelined behind a normal request. None
    /// adds a mapping (a later `/zzz` is still a 404) and each is unexpected.
    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3 (apt-get install python3)"))
    func noSpellingOfAnAdminWriteGetsThrough() throws {
        let directory = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let probe = try CLI.write(Self.probe, "probe.py", in: directory)
        let result = try CLI.run(["--strict", "--port", "0", "--stub", "st1.json", "python3", probe], cwd: directory)
        #expect(result.status == 4, "\(result.stdout) \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 17, "\(result.stdout)")
        for line in lines { #expect(!line.contains(" 200 ") && !line.contains(" 201 "), "\(line)") }
        #expect(result.stdout.contains("pipelined [200, 403]") && result.stdout.contains("after 404"), "\(result.stdout)")
        #expect(result.stderr.contains("18 requests, 17 unexpected"), "\(result.stderr)")
    }

    /// The same write over the HTTPS listener and through interception (the proxy's tunnel to an intercepted host):
    /// refused, and the request after it still unexpected.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (scripts/install-test-deps.sh installs it, and libssl3)"))
    func overHTTPSAndThroughInterceptionTheWriteIsRefusedToo() throws {
        let directory = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let https = try CLI.run(["--strict", "--https", "--port", "0", "--stub", "st1.json", "sh", "-c", Self.program], cwd: directory)
        #expect(https.status == 4 && https.stdout == "403 404", "\(https.stdout) \(https.stderr)")
        let write = "curl -s -o /dev/null -w '%{http_code} ' -H content-type:application/json -d @catch.json"
        let script =
            "\(write) https://api.example.com/__admin/mappings; \(write) -H 'Host: 127.0.0.1' https://api.example.com/__admin/mappings; "
            + "curl -s -o /dev/null -w '%{http_code}' https://api.example.com/zzz"
        let intercepted = try CLI.run(
            ["--strict", "--intercept", "api.example.com", "--port", "0", "--stub", "st1.json", "sh", "-c", script], cwd: directory)
        #expect(intercepted.status == 4 && intercepted.stdout == "403 403 404", "\(intercepted.stdout) \(intercepted.stderr)")
        #expect(intercepted.stderr.contains("3 requests, 3 unexpected"), "\(intercepted.stderr)")
    }

    /// A `test` scenario: `Then the server received no unexpected requests` fails on the refused write (and on the
    /// answer of the program's mapping under `allow`); `trust` passes.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func aScenarioCannotBeTalkedGreenThroughTheAdminAPI() throws {
        let directory = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catchFile = directory.appendingPathComponent("catch.json").path
        let feature = try CLI.write(
            """
            Feature: A
              Scenario: program adds a catch-all
                Given the route "GET /a" answers 200
                When I run "sh -c 'curl -s -o /dev/null -H content-type:application/json -d @\(catchFile) ${SUT_MOCK_SERVER_URL}/__admin/mappings; curl -s ${SUT_MOCK_SERVER_URL}/zzz'"
                Then the server received no unexpected requests

            """, "adm3.feature", in: directory)
        let refused = try CLI.run(["test", feature])
        #expect(refused.status == 1 && refused.stdout.contains("read-only to the program under test"), "\(refused.stdout)")
        let allowed = try CLI.run(["test", "--admin-writes", "allow", feature])
        #expect(allowed.status == 1 && allowed.stdout.contains("answered by a mapping the program added"), "\(allowed.stdout)")
        let trusted = try CLI.run(["test", "--admin-writes", "trust", feature])
        #expect(trusted.status == 0 && trusted.stdout.contains("1 passed"), "\(trusted.stdout) \(trusted.stderr)")
    }

    /// `serve` is a standalone server: its admin writes are its purpose, answered and not unexpected.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func serveStillAnswersAdminWrites() throws {
        let directory = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try CLI.freePort()
        let result = try CLI.run(["serve", "--port", "\(port)", "st1.json"], cwd: directory) { process, _ in
            defer { kill(process.processIdentifier, SIGKILL) }
            let url = "http://127.0.0.1:\(port)"
            var status = ""
            for _ in 0..<100 where status != "201 200" {
                usleep(50_000)
                status = try Self.shell(
                    "curl -s -o /dev/null -w '%{http_code} ' -H content-type:application/json -d @\(directory.path)/catch.json \(url)/__admin/mappings; "
                        + "curl -s -o /dev/null -w '%{http_code}' \(url)/zzz")
            }
            #expect(status == "201 200")
        }
        _ = result
    }

    /// What `script` prints on stdout (stderr to /dev/null).
    private static func shell(_ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Attack r5c-9: a route whose only request got `400 template: …` does not meet `"expect": {"times": 1}` (exit 4,
    /// "1 could not be answered", the report's calls 0), nor `Then the server received 1 request to "GET /r"`.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func anAnswerThatCouldNotBeMadeIsNoCall() throws {
        let directory = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            #"{"routes":[{"method":"GET","path":"/r","status":200,"template":true,"body":"{{randomValue length=request.query.n.[0]}}","expect":{"times":1}}]}"#,
            "nat.json", in: directory)
        let run = try CLI.run(
            [
                "--port", "0", "--stub", "nat.json", "--report", "rep.json", "sh", "-c",
                "curl -s -o /dev/null -w '%{http_code}' \"$SUT_MOCK_SERVER_URL/r?n=nan\"",
            ],
            cwd: directory)
        #expect(run.status == 4 && run.stdout == "400", "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("expected 1 call, got 0 (1 could not be answered)"), "\(run.stderr)")
        let report = try String(contentsOf: directory.appendingPathComponent("rep.json"), encoding: .utf8)
        let compact = report.replacingOccurrences(of: " ", with: "")
        #expect(compact.contains(#""calls":0"#) && compact.contains(#""unanswered":1"#), "\(report)")
        let nat = directory.appendingPathComponent("nat.json").path
        let feature = try CLI.write(
            """
            Feature: T
              Scenario: template fails
                Given the stubs "\(nat)"
                When I run "sh -c 'curl -s -o /dev/null ${SUT_MOCK_SERVER_URL}/r?n=nan'"
                Then the server received 1 request to "GET /r"

            """, "t2.feature", in: directory)
        let scenario = try CLI.run(["test", feature])
        #expect(scenario.status == 1, "\(scenario.stdout)")
        #expect(scenario.stdout.contains("the server received 0 (and 1 could not be answered)"), "\(scenario.stdout)")
    }

    /// The minor note of r5c: a client that gives up during a route's `delayMs` made the call (the request was received
    /// and matched, as WireMock counts it): its `expect` is met. docs/mock-server.md says so.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func aClientThatGivesUpDuringTheDelayStillMadeTheCall() throws {
        let directory = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(#"{"routes":[{"method":"GET","path":"/slow","delayMs":1500,"expect":{"times":1}}]}"#, "slow.json", in: directory)
        let run = try CLI.run(
            ["--strict", "--port", "0", "--stub", "slow.json", "sh", "-c", "curl -s -m 0.3 -o /dev/null $SUT_MOCK_SERVER_URL/slow; true"],
            cwd: directory)
        #expect(run.status == 0 && run.stderr.contains("1× GET /slow"), "\(run.stderr)")
    }

    static let probe = #"""
        import os, socket
        port = int(os.environ["SUT_MOCK_SERVER_URL"].rsplit(":", 1)[1])
        body = open("catch.json", "rb").read()
        def send(data):
            s = socket.create_connection(("127.0.0.1", port)); s.settimeout(5); s.sendall(data); out = b""
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                out += chunk
            s.close(); return [int(l.split(b" ")[1]) for l in out.split(b"\r\n") if l.startswith(b"HTTP/1.1 ")]
        def write(target, method=b"POST", extra=b""):
            return send(method + b" " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + b"Content-Length: %d\r\nConnection: close\r\n" % len(body) + extra + b"\r\n" + body)
        targets = [b"/__admin/mappings/", b"/%5F_admin/mappings", b"/__ADMIN/mappings", b"/x/../__admin/mappings",
                   b"/__admin/./mappings", b"/__admin//mappings", b"/__admin/mappings?x=1",
                   b"http://127.0.0.1:%d/__admin/mappings" % port, b"/__admin/%6dappings"]
        for t in targets: print("POST", t.decode(), write(t)[0], "")
        for m in [b"post", b"HEAD", b"OPTIONS", b"PATCH"]: print(m.decode(), write(b"/__admin/mappings", m)[0], "")
        print("origin", write(b"/__admin/mappings", extra=b"Origin: http://evil.example\r\n")[0], "")
        print("host", send(b"POST /__admin/mappings HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n"
              + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)[0], "")
        print("pipelined", send(b"GET /a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /__admin/mappings HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              + b"Content-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body))
        print("after", send(b"GET /zzz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")[0], "")
        """#
}
