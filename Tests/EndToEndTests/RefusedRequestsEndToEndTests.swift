import Foundation
import Testing

/// F6: requests the server refuses before any stub is consulted (431 for a head too large, 400 for a query whose `%`
/// is not an escape) are no requests to a route. `Then the server received 1 request to "GET /message"` passed on
/// them; now they are left out of every count, named beside it, and still fail a `--strict` run as unexpected.
@Suite(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
struct RefusedRequestsEndToEndTests {
    /// Sends one request with a 20,000-byte header (431) and one whose query holds `%zz` (400) to /message.
    private static let sender = """
        big=$(head -c 20000 /dev/zero | tr '\\0' a)
        curl -s -o /dev/null -H "X-Big: $big" "$SUT_MOCK_SERVER_URL/message"
        curl -s -o /dev/null "$SUT_MOCK_SERVER_URL/message?q=%zz"
        exit 0
        """

    @Test func aRequestRefusedBeforeMatchingIsNotCountedByARequestStep() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try CLI.write(Self.sender, "send.sh", in: directory)
        let feature = try CLI.write(
            """
            Feature: refused
              Scenario: refused requests
                Given the route "GET /message" answers 200
                When I run "sh \(script)"
                Then the exit code is 0
                And the server received 2 requests to "GET /message"

              Scenario: refused request with the header
                Given the route "GET /message" answers 200
                When I run "sh \(script)"
                Then the server received a request to "GET /message" with query "q" "%zz"
            """, "refused.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("the server received 0 (and 2 were refused before matching)"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("no GET /message request had query q=%zz"), "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("2 passed"), "\(result.stdout)")
    }

    @Test func aRefusedRequestIsNoCallOfARouteAndFailsAStrictRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try CLI.write(Self.sender, "send.sh", in: directory)
        let stubs = try CLI.write(
            #"{"routes":[{"method":"GET","path":"/message","body":"hi","expect":{"times":2}}]}"#, "s.json", in: directory)
        let journal = directory.appendingPathComponent("j.json").path
        // Not strict: the route's expect is unmet (the two requests never reached it).
        let loose = try CLI.run(["--port", "0", "--stub", stubs, "sh", script])
        #expect(loose.status == 4 && loose.stderr.contains("expected 2 calls, got 0"), "\(loose.stderr)")
        // Strict, with nothing expected of the route: the refusals are unexpected, named in the summary and journal.
        let plain = try CLI.write(#"{"routes":[{"method":"GET","path":"/message","body":"hi"}]}"#, "p.json", in: directory)
        let strict = try CLI.run(["--port", "0", "--strict", "--journal", journal, "--stub", plain, "sh", script])
        #expect(strict.status == 4, "\(strict.stderr)")
        #expect(strict.stderr.contains("2 requests, 2 unexpected"), "\(strict.stderr)")
        #expect(strict.stderr.contains("refused 431") && strict.stderr.contains("%zz"), "\(strict.stderr)")
        let written = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(written.components(separatedBy: #""refused":true"#).count == 3, "\(written)")
    }
}
