import Foundation
import Testing

/// R4a-14: the values the journal redacts (`Authorization`, `Cookie`, `Proxy-Authorization`, cookies) are redacted in
/// near misses too: the console, the journal's `nearMiss`, `--report`, the 404 body and the admin near-miss endpoints
/// (they printed `got "Bearer SUPERSECRET-1"` beside a journal entry whose headers said `[redacted]`).
@Suite struct NearMissSecretsEndToEndTests {
    static let stubs =
        #"{"routes":[{"method":"GET","path":"/me","headers":{"Authorization":"Bearer good-token"},"cookies":{"session":"good"},"body":"me"},"#
        + #"{"method":"GET","path":"/proxy","headers":{"Proxy-Authorization":"Basic Z29vZA==","Cookie":{"contains":"x"}},"body":"p"}]}"#

    static let script = """
        U=$SUT_MOCK_SERVER_URL
        curl -s $U/me -H "Authorization: Bearer SUPERSECRET-1" -H "Cookie: session=SECRETCOOKIE-2"
        curl -s $U/me -H "Authorization: Bearer good-token" -H "Cookie: session=SECRETCOOKIE-3"
        curl -s $U/proxy -H "Proxy-Authorization: Basic SECRETPROXY-4" -H "Cookie: a=SECRETCOOKIE-5"
        curl -s $U/__admin/requests/unmatched/near-misses
        curl -s $U/__admin/near-misses/request -H 'Content-Type: application/json' \\
          -d '{"url":"/me","method":"GET","headers":{"Authorization":"Bearer SUPERSECRET-6"}}'
        """

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func secretValuesAreRedactedInNearMissesUnlessAskedFor() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "auth.json", in: directory)
        let journal = directory.appendingPathComponent("j.json").path
        let report = directory.appendingPathComponent("r.json").path
        let result = try CLI.run([
            "--journal", journal, "--report", report, "--port", "0", "--stub", stubs, "sh", "-c", Self.script,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // The report's command line holds the script, secrets and all: its mockServer part is what must not.
        let reportJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let mockServer = try JSONSerialization.data(withJSONObject: try #require(reportJSON["mockServer"]))
        #expect(String(decoding: mockServer, as: UTF8.self).contains("nearMiss"))
        let everything = [
            result.stdout, result.stderr, try String(contentsOfFile: journal, encoding: .utf8), String(decoding: mockServer, as: UTF8.self),
        ]
        for (index, text) in everything.enumerated() {
            for secret in ["SUPERSECRET-1", "SECRETCOOKIE-2", "SECRETCOOKIE-3", "SECRETPROXY-4", "SECRETCOOKIE-5", "SUPERSECRET-6"] {
                #expect(!text.contains(secret), "output \(index) shows \(secret): \(text)")
            }
        }
        #expect(
            result.stderr.contains("header Authorization: expected equal to \"Bearer good-token\", got a value not shown ([redacted]"),
            "\(result.stderr)")
        #expect(result.stderr.contains("cookie session: expected equal to \"good\", got a value not shown ([redacted]"), "\(result.stderr)")
        #expect(result.stderr.contains("header Proxy-Authorization: expected"), "\(result.stderr)")

        let kept = try CLI.run(["--journal-secrets", "--journal", journal, "--port", "0", "--stub", stubs, "sh", "-c", Self.script])
        #expect(kept.stderr.contains(#"got "Bearer SUPERSECRET-1""#) && kept.stderr.contains(#"got "SECRETCOOKIE-2""#), "\(kept.stderr)")
    }
}
