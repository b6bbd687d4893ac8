import Foundation
import Testing

/// r11 R11-11: `serve --proxy-all` (and `record`, `--record-from`, `--proxy-unmatched`) relayed a web page's requests
/// to the real backend and recorded them, where the admin API refused the same requests: a rebound `Host`, a foreign
/// `Origin` with a `text/plain` POST, a `no-cors` GET marked `Sec-Fetch-Site: cross-site`. Driven with curl against
/// two real servers: the backend (a `serve` whose journal says what reached it) and the recording forwarder.
@Suite struct ForwardingTrustEndToEndTests {
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aWebPagesRequestsAreNeitherForwardedNorRecorded() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"{ "mappings": [ { "request": { "urlPathPattern": "/.*" }, "response": { "status": 200, "body": "secret" } } ] }"#,
            "backend.json", in: directory)
        let root = directory.appendingPathComponent("recorded").path
        var reached = ""
        var answers: [String] = []
        let backend = try ServerTrustEndToEndTests.serving([stubs]) { backendURL, _ throws in
            _ = try ServerTrustEndToEndTests.serving([
                "--proxy-all", backendURL, "--record-mappings", "--root-dir", root, "--allow-host", "host.docker.internal",
            ]) { url, port throws in
                answers = try [
                    ["-H", "Host: rebind.evil.example:\(port)", "\(url)/internal/rebound"],
                    [
                        "-H", "Origin: http://evil.example", "-H", "Content-Type: text/plain", "-d", "transfer=all",
                        "\(url)/internal/forged",
                    ],
                    ["-H", "Sec-Fetch-Site: cross-site", "\(url)/internal/img"],
                    ["-H", "Origin: null", "\(url)/internal/sandboxed"],
                    ["-H", "Host: host.docker.internal:\(port)", "\(url)/ok/container"],
                    ["-H", "Origin: http://localhost:3000", "-H", "Sec-Fetch-Site: same-site", "\(url)/ok/devserver"],
                ].map { try ServerTrustEndToEndTests.curl($0) }
            }
            reached = try CLI.output(of: ["curl", "-s", "\(backendURL)/__admin/requests"])
        }
        _ = backend
        #expect(answers.prefix(4).allSatisfy { $0.hasSuffix(" 403") && !$0.contains("secret") }, "\(answers)")
        #expect(answers.suffix(2).allSatisfy { $0 == "secret 200" }, "\(answers)")
        #expect(!reached.contains("/internal/") && reached.contains("/ok/container") && reached.contains("/ok/devserver"))
        let recorded = try FileManager.default.contentsOfDirectory(atPath: root + "/mappings")
        #expect(recorded.count == 2 && recorded.allSatisfy { $0.contains("ok_") }, "\(recorded)")
    }

    @Test func allowHostTakesAHostNameOnly() throws {
        // r13 R13-7: a compose service name (`mock_server`) is a name the 403 advises; it is taken.
        let compose = try CLI.run(["--allow-host", "mock_server", "true"])
        #expect(compose.status == 0, "\(compose.stderr)")
        for (value, problem) in [("http://x.test", "a URL"), ("x.test:80", "a port"), ("a b", "not a DNS name")] {
            let result = try CLI.run(["--allow-host", value, "true"])
            #expect(result.status == 2 && result.stderr.contains("--allow-host") && result.stderr.contains(problem), "\(result.stderr)")
        }
    }
}
