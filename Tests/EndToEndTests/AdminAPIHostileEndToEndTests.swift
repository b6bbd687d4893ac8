import Foundation
import Testing

/// The admin API and the answers of a running `sut-launch serve` against values that would kill it or reach
/// the wire raw (issue 24): numbers and dates in queries, header injection through mappings and templates.
@Suite struct AdminAPIHostileEndToEndTests {
    static let json = ["-H", "Content-Type: application/json"]

    /// Query numbers and dates out of range are 400 naming the value; the server lives on.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func queryNumbersAndDatesOutOfRangeAre400() throws {
        let result = try ServerTrustEndToEndTests.serving { url, _ throws in
            for query in [
                "since=9999999999-01-01T00:00:00Z", "since=2026-13-01T00:00:00Z", "since=2026-02-30T00:00:00Z",
                "since=2026-01-01T24:00:00Z", "since=2026-01-01T00:60:00Z", "since=-99999999999-01-01T00:00:00Z",
                "since=2026-01-01T00:00:00%2B99:00", "since=yesterday", "since=", "since=%D9%A2026-01-01T00:00:00Z",
                "limit=-1", "limit=1e300", "limit=9223372036854775808", "limit=nan", "limit=",
            ] {
                let answer = try ServerTrustEndToEndTests.curl(["\(url)/__admin/requests?\(query)"])
                let value = String(query.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[1])
                #expect(answer.hasSuffix(" 400"), "\(query): \(answer)")
                #expect(answer.contains("'\(value.removingPercentEncoding ?? value)'"), "\(query): \(answer)")
            }
            for query in ["timeoutMs=nan", "timeoutMs=-1", "timeoutMs=9223372036854775807", "timeoutMs=120001"] {
                let answer = try ServerTrustEndToEndTests.curl([
                    "-H", "Content-Type: application/octet-stream", "\(url)/__sut/control?\(query)",
                ])
                #expect(answer.hasSuffix(" 400") && answer.contains("0 to 120000"), "\(query): \(answer)")
            }
            // m5: `01` was taken for message 1; an id is written as X-Sut-Message-Id gave it.
            for id in ["abc", "0", "-1", "9223372036854775808", "1e3", "01", "001", "1.0", "0x1"] {
                let answer = try ServerTrustEndToEndTests.curl(
                    ServerTrustEndToEndTests.octets + ["--data-binary", "", "\(url)/__sut/control/ack?id=\(id)"])
                #expect(answer.hasSuffix(" 400"), "\(id): \(answer)")
            }
            // Dates WireMock's clients send: with a fraction, an offset, a leap second; far past and future in range.
            for since in [
                "2026-01-01T00:00:00Z", "2026-01-01T00:00:00.123456Z", "2026-01-01T01:00:00%2B01:00", "2016-12-31T23:59:60Z",
                "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-01-01T00:00:00-05:30",
            ] {
                let answer = try ServerTrustEndToEndTests.curl(["\(url)/__admin/requests?since=\(since)&limit=0"])
                #expect(answer.hasSuffix(" 200"), "\(since): \(answer)")
            }
            #expect(try ServerTrustEndToEndTests.curl(["\(url)/__admin/health"]) == #"{"status":"ok"} 200"#)
        }
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
    }

    /// Hostile review: two `Origin` headers, the server's own and a foreign one, got the mappings (the policy read
    /// the first). A request with more than one `Origin` or `Sec-Fetch-Site` is refused on every endpoint (two
    /// `Host` headers are a 400 for every request already, as RFC 9112 asks).
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func twoOriginOrHostHeadersAreRefused() throws {
        let result = try ServerTrustEndToEndTests.serving { url, port throws in
            let own = "http://127.0.0.1:\(port)"
            for headers in [
                ["Origin: \(own)", "Origin: http://evil.example"], ["Origin: http://evil.example", "Origin: \(own)"],
                ["Sec-Fetch-Site: same-origin", "Sec-Fetch-Site: cross-site"],
            ] {
                for path in ["/__admin/mappings", "/__admin/requests", "/__sut/control?timeoutMs=0"] {
                    let answer = try ServerTrustEndToEndTests.curl(
                        ServerTrustEndToEndTests.octets + headers.flatMap { ["-H", $0] } + ["\(url)\(path)"])
                    #expect(answer.hasSuffix(" 403") && answer.contains("more than one"), "\(headers) \(path): \(answer)")
                }
            }
            #expect(try ServerTrustEndToEndTests.curl(["-H", "Origin: \(own)", "\(url)/__admin/mappings"]).hasSuffix(" 200"))
        }
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
    }

    /// A mapping posted with a header name or status message holding CR/LF is refused (it was 201 and then
    /// written raw: a forged Set-Cookie); so is an out-of-range delay (it killed the server at its first request).
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func mappingsThatWouldBreakTheHeadOrTheServerAreRefused() throws {
        _ = try ServerTrustEndToEndTests.serving { url, _ throws in
            for (mapping, field) in [
                (#"{"request": {"url": "/a"}, "response": {"headers": {"X-A\r\nSet-Cookie: s=1": "v"}}}"#, "headers"),
                (#"{"request": {"url": "/a"}, "response": {"statusMessage": "OK\r\nSet-Cookie: s=1"}}"#, "statusMessage"),
                (#"{"request": {"url": "/a"}, "response": {"fixedDelayMilliseconds": 9223372036854775807}}"#, "fixedDelayMilliseconds"),
                (#"{"request": {"url": "/a"}, "response": {"status": -1}}"#, "status"),
            ] {
                let answer = try ServerTrustEndToEndTests.curl(Self.json + ["-d", mapping, "\(url)/__admin/mappings"])
                #expect(answer.hasSuffix(" 422") && answer.contains(field), "\(answer)")
            }
            #expect(try ServerTrustEndToEndTests.curl(["\(url)/__admin/mappings"]).contains(#""total":0"#))
            #expect(try ServerTrustEndToEndTests.curl(["\(url)/a"]).hasSuffix(" 404"))
        }
    }

    /// A request value rendered into a header by a template cannot write a line of its own nor a NUL: control
    /// bytes become spaces.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func requestValuesCannotReachTheResponseHeadRaw() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"{"routes": [{"path": "/echo", "template": true, "responseHeaders": {"X-Echo": "{{request.query.v}}"}, "body": "ok"}]}"#,
            "routes.json", in: directory)
        _ = try ServerTrustEndToEndTests.serving([stubs]) { url, _ throws in
            let split = try CLI.output(of: ["curl", "-s", "-i", "\(url)/echo?v=a%0D%0ASet-Cookie:%20s=1"])
            #expect(split.hasPrefix("HTTP/1.1 200 OK\r\n") && !split.contains("\nSet-Cookie"), "\(split)")
            // Templating writes a control byte of a header value as a space; the head writer's gate (500 naming
            // the header) is for answers built in code: HTTPFieldTests.theHeadGateRefusesWhatHTTPForbids.
            let nul = try CLI.output(of: ["curl", "-s", "-i", "\(url)/echo?v=a%00b"])
            #expect(nul.hasPrefix("HTTP/1.1 200 ") && nul.contains("X-Echo: a b\r\n"), "\(nul)")
            #expect(!nul.contains("\u{0}"), "\(nul)")
        }
    }
}
