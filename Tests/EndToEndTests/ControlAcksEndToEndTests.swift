import Foundation
import Testing

/// R4a-4 with the built binary and curl: an acknowledgement is accepted only for a message delivered and not yet
/// answered, a message whose sender was told 504 is withdrawn (never delivered later), a second acknowledgement is a
/// 409, a repeated `id` is refused, and a body that is not UTF-8 is refused rather than delivered as U+FFFD.
@Suite struct ControlAcksEndToEndTests {
    static let script = #"""
        U=$SUT_MOCK_SERVER_URL; H='Content-Type: application/octet-stream'
        code() { curl -s -o /dev/null -w "%{http_code} " -H "$H" "$@"; }
        code -X POST "$U/__sut/control?waitForAckMs=300" --data-binary timed-out
        code -X POST "$U/__sut/control/ack?id=1" --data-binary late
        code -X POST "$U/__sut/control" --data-binary second
        code -X POST "$U/__sut/control/ack?id=2" --data-binary acked-without-reading
        curl -s -H "$H" "$U/__sut/control?timeoutMs=100" -w " %{http_code} "
        code -X POST "$U/__sut/control/ack?id=2" --data-binary first
        code -X POST "$U/__sut/control/ack?id=2" --data-binary second
        code -X POST "$U/__sut/control/ack?id=2&id=3" --data-binary x
        printf 'a\0b\377c' > m.bin
        code -X POST "$U/__sut/control" --data-binary @m.bin
        code "$U/__sut/control?timeoutMs=100"
        """#

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func acknowledgementsAreTiedToDelivery() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes":[]}"#, "empty.json", in: directory)
        let result = try CLI.run(["-q", "--port", "0", "--stub", stubs, "sh", "-c", Self.script], cwd: directory)
        #expect(result.stdout == "504 409 202 409 second 200 204 409 400 400 204 ", "\(result.stdout) \(result.stderr)")
    }

    /// M10: a sender still waiting (`waitForAckMs`) when the run ends (the program took the message and exited) got an
    /// empty reply, the connection closed; now a 503 saying the run ended first, with `X-Sut-Message-Delivered`.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aSenderWaitingWhenTheRunEndsIsAnswered() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes":[]}"#, "empty.json", in: directory)
        let url = directory.appendingPathComponent("url")
        let program =
            #"echo "$SUT_MOCK_SERVER_URL" > url; curl -s -H 'Content-Type: application/octet-stream' "$SUT_MOCK_SERVER_URL/__sut/control?timeoutMs=20000" > got"#
        var answer = ""
        let result = try CLI.run(["--port", "0", "--stub", stubs, "sh", "-c", program], cwd: directory) { _, _ in
            #expect(CLI.eventually { ((try? String(contentsOf: url, encoding: .utf8)) ?? "").hasSuffix("\n") })
            let base = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            answer = try CLI.output(of: [
                "curl", "-s", "-i", "-X", "POST", "-H", "Content-Type: application/octet-stream", "--data-binary", "refresh",
                base + "/__sut/control?waitForAckMs=30000",
            ])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: directory.appendingPathComponent("got"), encoding: .utf8) == "refresh")
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
        #expect(answer.contains("X-Sut-Message-Delivered: true"), "\(answer)")
        #expect(
            answer.contains("the run ended before the program acknowledged control message 1 (it had been written to the program's poll)"),
            "\(answer)")
        #expect(!result.stderr.contains("still arriving or being answered"), "\(result.stderr)")
    }
}
