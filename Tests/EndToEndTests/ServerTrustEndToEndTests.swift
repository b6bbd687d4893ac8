import Foundation
import Testing

/// `sut-launch serve` attacked from outside with curl (issue 24): its own endpoints (admin API, control
/// channel) under one policy against web pages and DNS rebinding, and the stub values that would reach the wire
/// raw or kill it (header names, reason phrases, numbers, ids), at load, through the admin API and at answer time.
@Suite struct ServerTrustEndToEndTests {
    /// Runs `sut-launch serve --port 0 ARGUMENTS`, calls `body` with its URL and port, then interrupts it.
    static func serving(_ arguments: [String] = [], _ body: (_ url: String, _ port: String) throws -> Void) throws -> CLI.Result {
        try withoutActuallyEscaping(body) { body in try servingEscaping(arguments, body) }
    }

    private static func servingEscaping(_ arguments: [String], _ body: @escaping (String, String) throws -> Void) throws -> CLI.Result {
        try CLI.run(["serve", "-q", "--port", "0"] + arguments) { process, out in
            defer { process.interrupt() }
            #expect(CLI.eventually { ((try? String(contentsOf: out, encoding: .utf8)) ?? "").hasSuffix("\n") })
            let url = try String(contentsOf: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            try body(url, String(url.split(separator: ":").last ?? ""))
        }
    }

    /// curl's body followed by " STATUS".
    static func curl(_ arguments: [String]) throws -> String {
        try CLI.output(of: ["curl", "-s", "-w", " %{http_code}"] + arguments)
    }

    static let octets = ["-H", "Content-Type: application/octet-stream"]

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func theControlChannelRefusesWebPagesAndDNSRebinding() throws {
        let result = try Self.serving { url, port throws in
            let control = "\(url)/__sut/control"
            // A web page's simple request (no preflight): a foreign Origin and text/plain.
            let forged = try Self.curl([
                "-X", "POST", "-H", "Origin: http://evil.example", "-H", "Content-Type: text/plain",
                "--data-binary", "flag set greeting=pwned", control,
            ])
            #expect(forged.hasSuffix(" 403") && forged.contains("Origin: http://evil.example"), "\(forged)")
            // Without an Origin, every type a page can send without preflight is refused, and so is none at all.
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "TEXT/PLAIN; charset=utf-8"]
            {
                let refused = try Self.curl(["-H", "Content-Type: \(type)", "--data-binary", "flag set greeting=pwned", control])
                #expect(refused.hasSuffix(" 415") && refused.contains("application/octet-stream"), "\(type): \(refused)")
            }
            let untyped = try Self.curl(["-H", "Content-Type:", "--data-binary", "flag set greeting=pwned", control])
            #expect(untyped.hasSuffix(" 415"), "\(untyped)")
            // Nothing of that reached the program's queue.
            #expect(try Self.curl(Self.octets + ["\(control)?timeoutMs=0"]) == " 204")

            // A test's message, then attempts to read (and so dequeue) it from a page or a rebound name.
            #expect(try Self.curl(Self.octets + ["-o", "/dev/null", "--data-binary", "refresh", control]) == " 202")
            for header in [
                "Host: evil.example:\(port)", "Host: 127.0.0.1.evil.example", "Origin: http://evil.example",
                "Origin: null", "Origin: http://127.0.0.1:1", "Origin: http://localhost:\(port).evil.example",
                "Sec-Fetch-Site: cross-site", "Sec-Fetch-Site: same-site",
            ] {
                let stolen = try Self.curl(Self.octets + ["-H", header, "\(control)?timeoutMs=0"])
                #expect(stolen.hasSuffix(" 403") && !stolen.contains("refresh"), "\(header): \(stolen)")
                let acknowledged = try Self.curl(Self.octets + ["-H", header, "--data-binary", "", "\(control)/ack?id=1"])
                #expect(acknowledged.hasSuffix(" 403"), "\(header): \(acknowledged)")
            }
            // A GET without the channel's type (an <img> on a page, from a browser that sends no Sec-Fetch-Site).
            #expect(try Self.curl(["\(control)?timeoutMs=0"]).hasSuffix(" 415"))
            // The message is still there for the program, which may name the server's own origin.
            #expect(
                try Self.curl(Self.octets + ["-H", "Origin: \(url)", "-H", "Sec-Fetch-Site: same-origin", "\(control)?timeoutMs=1000"])
                    == "refresh 200")
            #expect(try Self.curl(Self.octets + ["-H", "Host: localhost:\(port)", "\(control)?timeoutMs=0"]) == " 204")
        }
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
    }

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func theAdminAPIGoesThroughTheSamePolicy() throws {
        _ = try Self.serving { url, port throws in
            let json = ["-H", "Content-Type: application/json"]
            for header in [
                "Host: evil.example:\(port)", "Origin: http://evil.example", "Origin: null", "Origin: http://127.0.0.1:1",
                "Sec-Fetch-Site: cross-site",
            ] {
                #expect(try Self.curl(["-H", header, "\(url)/__admin/mappings"]).hasSuffix(" 403"), "\(header)")
                #expect(try Self.curl(json + ["-H", header, "-X", "POST", "\(url)/__admin/reset"]).hasSuffix(" 403"), "\(header)")
            }
            #expect(try Self.curl(["-H", "Content-Type: text/plain", "-d", "{}", "\(url)/__admin/reset"]).hasSuffix(" 415"))
            #expect(try Self.curl(json + ["-H", "Origin: \(url)", "-X", "POST", "\(url)/__admin/reset"]) == "{} 200")
        }
    }

    /// A header name or reason phrase with CR, LF, NUL or another character HTTP forbids would write its own
    /// header lines (a forged Set-Cookie): refused when the file loads, by `check` and by `serve` alike.
    @Test(arguments: [
        (#"{"routes": [{"path": "/a", "responseHeaders": {"X-A\r\nSet-Cookie: s=1": "v"}}]}"#, "native.json", "responseHeaders"),
        (#"{"routes": [{"path": "/a", "responseHeaders": {"X-A": "v\r\nSet-Cookie: s=1"}}]}"#, "native.json", "responseHeaders"),
        (#"{"routes": [{"path": "/a", "responseHeaders": {"X A": "v"}}]}"#, "native.json", "responseHeaders"),
        (#"{"routes": [{"path": "/a", "reason": "OK\r\nSet-Cookie: s=1"}]}"#, "native.json", "reason"),
        (#"{"routes": [{"path": "/a", "reason": "OK\u0000"}]}"#, "native.json", "reason"),
        (#"{"request": {"url": "/a"}, "response": {"headers": {"X-A\nSet-Cookie: s=1": "v"}}}"#, "mapping.json", "headers"),
        (#"{"request": {"url": "/a"}, "response": {"headers": {"X-A": ["ok", "v\u0000"]}}}"#, "mapping.json", "headers"),
        (#"{"request": {"url": "/a"}, "response": {"statusMessage": "OK\r\nSet-Cookie: s=1"}}"#, "mapping.json", "statusMessage"),
    ])
    func headerInjectionInStubFilesIsRefusedAtLoad(text: String, name: String, field: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLI.write(text, name, in: directory)
        for arguments in [["check", file], ["serve", "--port", "0", file]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 3, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.contains("\(name):1:") && result.stderr.contains(field), "\(arguments[0]): \(result.stderr)")
        }
    }

    /// Numbers in stub files are read in a documented range at load: out of range is exit 3 naming the file and
    /// the field (a delay of Int.max passed `check` and killed the server at its first request).
    @Test(arguments: [
        (#"{"routes": [{"path": "/a", "delayMs": 9223372036854775807}]}"#, "delayMs", "0 to 600000"),
        (#"{"routes": [{"path": "/a", "delayMs": -1}]}"#, "delayMs", "0 to 600000"),
        (#"{"routes": [{"path": "/a", "delayMs": 1e300}]}"#, "delayMs", "0 to 600000"),
        (#"{"routes": [{"path": "/a", "status": 9223372036854775807}]}"#, "status", "200 to 599"),
        (#"{"routes": [{"path": "/a", "priority": 1e300}]}"#, "priority", "whole number"),
        (#"{"routes": [{"path": "/a", "expect": {"times": -1}}]}"#, "times", "whole number from 0"),
        (#"{"routes": [{"path": "/a", "responses": [{"delayMs": 700000}]}]}"#, "delayMs", "0 to 600000"),
        (
            #"{"request": {"url": "/a"}, "response": {"fixedDelayMilliseconds": 9223372036854775807}}"#, "fixedDelayMilliseconds",
            "0 to 600000"
        ),
        (#"{"request": {"url": "/a"}, "response": {"status": 1000}}"#, "status", "200 to 599"),
        (#"{"request": {"url": "/a"}, "response": {"status": 100}}"#, "status", "200 to 599"),
        (#"{"request": {"url": "/a"}, "response": {}, "priority": 9223372036854775807}"#, "priority", "whole number"),
    ])
    func outOfRangeNumbersAreRefusedAtLoad(text: String, field: String, range: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLI.write(text, "stubs.json", in: directory)
        let result = try CLI.run(["check", file])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(
            result.stderr.contains("stubs.json:1:") && result.stderr.contains("\"\(field)\"") && result.stderr.contains(range),
            "\(result.stderr)")
    }

    /// Mapping ids are UUIDs, as WireMock has them: `team/a` can never be read or deleted by id, so it is
    /// refused in a file (exit 3) and through the admin API (422, WireMock's status for a mapping it cannot read).
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func mappingIdsAreUUIDs() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for id in ["team/a", "abc", "5a2c0e3e-1111-4222-8333-44445555666g", "1-1-1-1-1"] {
            let file = try CLI.write(#"{"id": "\#(id)", "request": {"url": "/a"}, "response": {}}"#, "mappings/m.json", in: directory)
            let checked = try CLI.run(["check", file])
            #expect(
                checked.status == 3 && checked.stderr.contains("m.json:1:") && checked.stderr.contains("\"id\""), "\(id): \(checked.stderr)"
            )
        }
        _ = try Self.serving { url, _ throws in
            let json = ["-H", "Content-Type: application/json"]
            let refused = try Self.curl(
                json + ["-d", #"{"id": "team/a", "request": {"url": "/a"}, "response": {}}"#, "\(url)/__admin/mappings"])
            #expect(refused.hasSuffix(" 422") && refused.contains("UUID"), "\(refused)")
            let badUUID = try Self.curl(
                json + ["-d", #"{"uuid": "x/y", "request": {"url": "/a"}, "response": {}}"#, "\(url)/__admin/mappings"])
            #expect(badUUID.hasSuffix(" 422"), "\(badUUID)")
            // WireMock reads ids in any case and gives them back in lower case; by either, the mapping is found.
            let added = try Self.curl(
                json + [
                    "-d", #"{"id": "5A2C0E3E-1111-4222-8333-444455556666", "request": {"url": "/a"}, "response": {}}"#,
                    "\(url)/__admin/mappings",
                ])
            #expect(added.hasPrefix(#"{"id":"5a2c0e3e-1111-4222-8333-444455556666""#) && added.hasSuffix(" 201"), "\(added)")
            #expect(try Self.curl(["-o", "/dev/null", "\(url)/__admin/mappings/5A2C0E3E-1111-4222-8333-444455556666"]) == " 200")
            #expect(try Self.curl(["-X", "DELETE", "\(url)/__admin/mappings/5a2c0e3e-1111-4222-8333-444455556666"]) == "{} 200")
            #expect(try Self.curl(["\(url)/__admin/mappings"]).contains(#""total":0"#))
        }
    }

    /// Hostile review: a program that sends an unmatched request and exits at once. The request was still in the
    /// server's socket when the run counted, so a strict run exited 0 with "0 requests" about half the time (and
    /// `the server received no unexpected requests` passed). The end of a run reads what was sent first.
    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3"))
    func aRequestSentJustBeforeTheProgramExitsIsCounted() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes": [{"path": "/a", "status": 200}], "unexpected": "fail"}"#, "strict.json", in: directory)
        let fire = try CLI.write(
            """
            import os, socket, urllib.parse
            u = urllib.parse.urlparse(os.environ["SUT_MOCK_SERVER_URL"])
            s = socket.create_connection((u.hostname, u.port))
            body = b"x" * 100000
            s.sendall(b"POST /not-stubbed HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(body) + body)
            os._exit(0)
            """, "fire.py", in: directory)
        let feature = try CLI.write(
            """
            Feature: strict
              Scenario: an unmatched request the program sent
                Given the stubs "strict.json"
                When I launch the program with "${FIRE}"
                Then the exit code is 0
                And the server received no unexpected requests
            """, "strict.feature", in: directory)
        for attempt in 1...5 {
            let report = directory.appendingPathComponent("r\(attempt).json").path
            let run = try CLI.run(["--port", "0", "--stub", stubs, "--report", report, "python3", fire])
            #expect(run.status == 4 && run.stderr.contains("POST /not-stubbed"), "run \(attempt): \(run.status) \(run.stderr)")
            let json = try String(contentsOfFile: report, encoding: .utf8)
            #expect(json.contains("/not-stubbed"), "run \(attempt): the report does not name the request: \(json)")
            let test = try CLI.run(["test", "-q", "--step-timeout", "30s", "-D", "PROGRAM=python3", "-D", "FIRE=\(fire)", feature])
            #expect(test.status == 1 && test.stdout.contains("/not-stubbed"), "test \(attempt): \(test.status) \(test.stdout)")
        }
    }

    /// Hostile review (third round): a request the server refused before any stub saw it (431 for a head over the
    /// limit, 400 for a bad character or two different Content-Lengths) was counted nowhere, so a strict run exited 0
    /// with "0 requests". Each is an unexpected request now, journaled as far as it was read, with the refusal.
    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3"))
    func aRequestTheServerRefusesIsAnUnexpectedRequest() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes": [{"path": "/a", "status": 200}], "unexpected": "fail"}"#, "strict.json", in: directory)
        for (name, raw) in [
            ("a head over the limit", #"b"GET /big HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n""#),
            ("a bad character", #"b"GET /bad\x01 HTTP/1.1\r\nHost: x\r\n\r\n""#),
            ("two Content-Lengths", #"b"POST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab""#),
        ] {
            let program = try CLI.write(
                """
                import os, socket
                port = int(os.environ["SUT_MOCK_SERVER_URL"].rsplit(":", 1)[1])
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(\(raw))
                print(s.recv(12).decode())
                """, "send.py", in: directory)
            let journal = directory.appendingPathComponent("journal.json").path
            let result = try CLI.run(["--strict", "--port", "0", "--stub", stubs, "--journal", journal, "python3", program])
            #expect(
                result.status == 4 && result.stderr.contains("1 unexpected"), "\(name): \(result.status) \(result.stdout) \(result.stderr)")
            let text = try String(contentsOfFile: journal, encoding: .utf8)
            #expect(text.contains("refused 4"), "\(name): \(text.prefix(600))")
        }
    }

    /// Hostile review (third round): `--host localhost` and `--host [::1]` were exit 125 from inet_pton after the
    /// stubs loaded. `--host` takes an IP address, checked with the other options: a usage error naming it.
    @Test func hostTakesAnIPAddressNamedInTheError() throws {
        let stubs = CLI.packageRoot.appendingPathComponent("Fixtures/stubs/routes.json").path
        for (value, hint) in [
            ("localhost", "write 127.0.0.1"), ("[::1]", "write ::1"), ("", "write 127.0.0.1 or ::1"), ("1.2.3", "write 127.0.0.1 or ::1"),
        ] {
            for command in [["--host", value, "-p", "0", "--stub", stubs, "true"], ["serve", "--host", value, "-p", "0", stubs]] {
                let result = try CLI.run(command)
                #expect(
                    result.status == 2 && result.stderr.contains("--host '\(value)': not an IP address; \(hint)"),
                    "\(command): \(result.status) \(result.stderr)")
            }
        }
    }
}
