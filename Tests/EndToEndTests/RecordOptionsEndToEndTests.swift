import Foundation
import Testing

/// `record` refused `--keep-secrets`, `--capture-header` and `--record-insecure` (R9D-14), while its recordings said
/// "record with --keep-secrets to keep it" and an https backend with its own CA could not be recorded by it at all; then
/// it refused `--capture-header=NAME`, the spelling with `=` that every other option takes.
@Suite struct RecordOptionsEndToEndTests {
    @Test(
        .enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"),
        arguments: [["--capture-header", "X-Tenant"], ["--capture-header=X-Tenant"]])
    func recordTakesTheRecordingOptionsItsNotesName(captureHeader: [String]) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stub = try CLI.write(
            #"{"request":{"url":"/login"},"response":{"status":200,"headers":{"Set-Cookie":"session=kept-1"},"body":"in"}}"#,
            "login.json", in: directory)
        let backendPort = try CLI.freePort()
        let port = try CLI.freePort()
        let root = directory.appendingPathComponent("rec").path
        var recorded: CLI.Result?
        _ = try CLI.run(["serve", "-q", "--port", String(backendPort), stub]) { backend, _ in
            defer { kill(backend.processIdentifier, SIGKILL) }
            try #require(CLI.eventually(20) { CLI.loopbackSocket(backendPort).map { close($0) } != nil })
            recorded = try CLI.run(
                [
                    "record", "--port", String(port), "--target", "http://127.0.0.1:\(backendPort)", "--into", root,
                    "--keep-secrets", "--record-insecure",
                ] + captureHeader
            ) { process, _ in
                defer { kill(process.processIdentifier, SIGTERM) }
                try #require(CLI.eventually(20) { CLI.loopbackSocket(port).map { close($0) } != nil })
                _ = try CLI.output(of: ["curl", "-s", "-H", "X-Tenant: t1", "http://127.0.0.1:\(port)/login"])
            }
        }
        let result = try #require(recorded)
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/mappings")
        try #require(names.count == 1, "\(names)")
        let mapping = try String(contentsOfFile: root + "/mappings/" + names[0], encoding: .utf8)
        #expect(mapping.contains("session=kept-1") && !mapping.contains("redacted"), "\(mapping)")
        #expect(mapping.contains("X-Tenant") && mapping.contains("t1"), "\(mapping)")
        // Without a recording they still do nothing, and say so.
        let idle = try CLI.run(["serve", "--port", "0", "--keep-secrets"])
        #expect(
            idle.status == 2 && idle.stderr.contains("--keep-secrets is for a recording: add --proxy-all URL --record-mappings"),
            "\(idle.stderr)")
    }
}
