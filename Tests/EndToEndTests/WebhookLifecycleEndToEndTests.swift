import Foundation
import Testing

/// Attack 1, F1: a webhook that calls its own server kept `serve` (and a run) alive forever: SIGTERM, SIGINT and the
/// admin shutdown were ignored while each answer reserved the next webhook. Stopping now refuses new webhooks (each a
/// failure, named) and waits for those in flight up to a deadline fixed when the wait begins.
@Suite struct WebhookLifecycleEndToEndTests {
    private static let loop =
        #"{"mappings":[{"request":{"urlPath":"/loop"},"response":{"status":200},"postServeActions":[{"name":"webhook","parameters":{"method":"GET","url":"{{request.baseUrl}}/loop","delay":{"type":"fixed","milliseconds":100}}}]}]}"#

    /// What ends a run or serve that hangs: SIGKILL, so the test fails instead of waiting forever.
    private static func killIfStillRunning(_ process: Process, within seconds: Double) -> Bool {
        if CLI.eventually(seconds, { !process.isRunning }) { return true }
        kill(process.processIdentifier, SIGKILL)
        return false
    }

    private static func get(_ path: String, port: UInt16) {
        guard let client = CLI.loopbackSocket(port) else { return }
        defer { close(client) }
        _ = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8).withUnsafeBytes {
            send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        var pfd = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, 10_000)
    }

    @Test func serveWithAWebhookCallingItselfStopsOnSIGTERM() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.loop, "loop.json", in: directory)
        let port = try CLI.freePort()
        var ended = false
        let result = try CLI.run(["serve", "--port", String(port), stubs]) { process, stdout in
            let stderr = stdout.deletingLastPathComponent().appendingPathComponent("stderr")
            _ = CLI.eventually(30) { ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").hasSuffix("\n") }
            Self.get("/loop", port: port)
            // The marker: the webhook has called the server at least twice, so the chain runs.
            let calls = { ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").components(separatedBy: "GET /loop").count - 1 }
            #expect(CLI.eventually(30) { calls() >= 3 }, "the chain did not start")
            process.terminate()
            ended = Self.killIfStillRunning(process, within: 30)
        }
        #expect(ended, "serve still ran 30 s after SIGTERM")
        #expect(result.status == 4, "\(result.status) \(result.stderr.suffix(2000))")
        let named =
            result.stderr.contains("/loop after")
            && (result.stderr.contains("not sent, the server was stopping")
                || result.stderr.contains("still being sent when the server stopped"))
        #expect(named, "\(result.stderr.suffix(2000))")
    }

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aRunWithAWebhookCallingItsServerEnds() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.loop, "loop.json", in: directory)
        var ended = false
        let result = try CLI.run(["--port", "0", "--stub", stubs, "sh", "-c", #"curl -s "$SUT_MOCK_SERVER_URL/loop""#]) { process, _ in
            ended = Self.killIfStillRunning(process, within: 90)
        }
        #expect(ended, "the run still ran 90 s after it started")
        #expect(result.status == 4, "\(result.status) \(result.stderr.suffix(2000))")
        #expect(
            result.stderr.contains("not sent, the server was stopping")
                || result.stderr.contains("still being sent when the server stopped"),
            "\(result.stderr.suffix(2000))")
    }

    /// Third attack, F4: the program ended, a webhook waited out its 30 s delay, and SIGTERM/SIGINT meanwhile went
    /// to the program that was gone: the run sent the webhook and exited 0. A signal now ends the wait: 128+N, the
    /// webhook not sent and named.
    @Test(
        .enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"),
        arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] as [(Int32, Int32)])
    func aSignalWhileADelayedWebhookWaitsEndsTheRun(signal: Int32, status: Int32) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try CLI.freePort()
        let stubs = try CLI.write(
            #"{"request":{"url":"/a"},"response":{"status":200},"postServeActions":[{"name":"webhook","parameters":{"method":"POST","url":"http://127.0.0.1:\#(port)/late","body":"x","delay":{"type":"fixed","milliseconds":30000}}}]}"#,
            "wh.json", in: directory)
        let marker = directory.appendingPathComponent("done").path
        var ended = false
        let result = try CLI.run(["--port", "0", "--stub", stubs, "sh", "-c", #"curl -s "$SUT_MOCK_SERVER_URL/a"; touch "\#(marker)""#]) {
            process, _ in
            #expect(CLI.eventually(30) { FileManager.default.fileExists(atPath: marker) }, "the program did not run")
            Thread.sleep(forTimeInterval: 0.3) // the program has ended; the run waits for the webhook
            kill(process.processIdentifier, signal)
            ended = Self.killIfStillRunning(process, within: 10)
        }
        #expect(ended, "the run still ran 10 s after the signal")
        #expect(result.status == status, "\(result.status) \(result.stderr.suffix(2000))")
        #expect(result.stderr.contains("still being sent when the server stopped"), "\(result.stderr.suffix(2000))")
    }
    /// r11 R11-5: a scenario's server waited for its webhooks' whole delay at the end (15 s under `--scenario-timeout
    /// 2s`), and the scenario passed. The wait ends at the scenario's deadline; what is still delayed is not sent, and
    /// the scenario fails naming its timeout.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aWebhookDelayedPastTheScenariosTimeoutFailsItInTime() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            #"{"request":{"url":"/t"},"response":{"status":200,"body":"ok"},"postServeActions":[{"name":"webhook","parameters":{"method":"POST","url":"http://127.0.0.1:9/late","delay":{"type":"fixed","milliseconds":15000}}}]}"#,
            "late.json", in: directory)
        let feature = try CLI.write(
            """
            Feature: W
              Scenario: late
                Given the stubs "late.json"
                When I run "sh -c 'curl -s $SUT_MOCK_SERVER_URL/t'"
                Then I see "ok"
            """, "w.feature", in: directory)
        let started = Date()
        let result = try CLI.run(["test", "--scenario-timeout", "2s", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            (result.stdout + result.stderr).contains("webhooks were still in flight at the scenario's 2s timeout"),
            "\(result.stdout)\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 12, "the wait outlasted the scenario's timeout")
    }
}
