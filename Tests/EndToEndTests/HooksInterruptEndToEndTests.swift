import Foundation
import Testing

/// Ctrl-C cannot be held off by hooks that ignore SIGTERM: a second signal stops every hook at once (SIGKILL to its
/// process group) and the reports are written.
@Suite struct HooksInterruptEndToEndTests {
    static func stubborn(_ name: String, in directory: URL) -> String {
        let pid = directory.appendingPathComponent(name).path
        return "[\"sh\", \"-c\", \"echo $$ > \(pid); trap '' TERM INT; sleep 3000\"]"
    }

    /// When the After hook runs: a second SIGINT, and the run must end soon (else it is killed, and that is a failure).
    static func signalAgain(_ process: Process, once started: URL) {
        let up = CLI.eventually(60) { FileManager.default.fileExists(atPath: started.path) }
        #expect(up, "the After hook did not start")
        kill(process.processIdentifier, SIGINT)
        // Generous: the fix ends the run in about a second; without it, the run would wait an hour.
        let ended = CLI.eventually(60) { !process.isRunning }
        if !ended {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("a second SIGINT did not end the run")
        }
    }

    /// The first signal SIGINT or SIGTERM: a SIGINT after a SIGTERM is a second signal too (R10B's note: only a second
    /// SIGTERM seemed to count; the SIGINT it sent was one its shell's `&` had left ignored).
    @Test(arguments: [SIGINT, SIGTERM])
    func aSecondSignalStopsHooksThatIgnoreTermAndWritesTheReports(first: Int32) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("up")
        _ = try CLI.write(
            """
            {"hooks": [
              {"hook": "After", "run": \(Self.stubborn("after.pid", in: directory)), "timeout": "1h"},
              {"hook": "AfterAll", "run": \(Self.stubborn("afterall.pid", in: directory)), "timeout": "1h"}
            ]}
            """, "hooks.steps.json", in: directory)
        _ = try CLI.write(
            "Feature: f\n  Scenario: long\n    When I run \"sh -c 'echo up > \(marker.path); exec sleep 20'\"\n", "f.feature", in: directory
        )
        let afterPid = directory.appendingPathComponent("after.pid")
        let started = Date()
        let result = try InterruptedReportsEndToEndTests.interrupt(
            ["f.feature"], in: directory, markers: [marker], signal: first,
            then: { process, _ in Self.signalAgain(process, once: afterPid) })
        #expect(result.status == 128 + first, "\(result.stdout)\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 100)
        let again = first == SIGINT ? "SIGINT again" : "SIGINT after SIGTERM"
        #expect(result.stderr.contains("\(again): stopping the hooks now and writing the reports"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("j.xml").path), "the reports were written")
        // The attack's m3: the AfterAll hook's turn came after the second signal; it never started, and is said so.
        #expect(result.stderr.contains("did not run: the run was interrupted and hooks' time was up"), "\(result.stderr)")
        #expect(!result.stderr.contains("AfterAll hook") || !result.stderr.contains("was stopped (SIGKILL"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("afterall.pid").path))
        for file in ["after.pid", "afterall.pid"] {
            guard let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            else { continue } // AfterAll may be stopped before its shell wrote anything
            // The hook's process group (its shell and the sleep) is gone.
            #expect(CLI.eventually(10) { kill(-pid, 0) == -1 }, "\(file): group \(pid) still alive")
            kill(-pid, SIGKILL)
        }
    }

    /// R9B-1: one signal while a teardown hook runs lets it finish (After and AfterAll alike), and an interruption of the
    /// AfterAll phase is in every report (JUnit had `failures="0" errors="0"`, Messages no `testRunHook...`): the hook
    /// was killed at once, its run missing from every report.
    @Test(arguments: ["After", "AfterAll"])
    func oneSignalWhileATeardownHookRunsLetsItFinishAndTheReportsSaySo(kind: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (started, done) = (directory.appendingPathComponent("started"), directory.appendingPathComponent("done"))
        let status = kind == "After" ? "$SCENARIO_STATUS" : "$SUT_RUN_STATUS"
        _ = try CLI.write(
            """
            {"hooks": [{"hook": "\(kind)", "run": ["sh", "-c", "echo > \(started.path); sleep 2; echo \(status) > \(done.path)"]}]}
            """, "hooks.steps.json", in: directory)
        _ = try CLI.write("Feature: f\n  Scenario: a\n    When I run \"true\"\n", "f.feature", in: directory)
        let result = try InterruptedReportsEndToEndTests.interrupt(["f.feature"], in: directory, markers: [started], signal: SIGTERM)
        #expect(result.status == 143, "\(result.stdout)\(result.stderr)")
        let said = try? String(contentsOf: done, encoding: .utf8)
        // It started before the signal, as the scenario (or the run) had passed.
        #expect(said == "passed\n", "the hook was cut: \(result.stdout)\(result.stderr)")
        let messages = try String(contentsOf: directory.appendingPathComponent("m.ndjson"), encoding: .utf8)
        let junit = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        // The run exits 143: no report reads green.
        #expect(junit.contains("<error"), "\(junit)")
        guard kind == "AfterAll" else { return }
        #expect(messages.contains("testRunHookFinished"), "\(messages)")
        #expect(junit.contains("errors=\"1\"") && junit.contains("while the AfterAll hooks ran (./hooks.steps.json:1)"), "\(junit)")
        #expect(result.stderr.contains("interrupted by SIGTERM while the AfterAll hooks ran"), "\(result.stderr)")
    }
}
