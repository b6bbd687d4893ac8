import Foundation
import Testing

/// Every signal that would end sut-launch, sent from outside with kill(2), ends the run as SIGTERM does: the
/// program's group gets it, the `--report` is written and sut-launch exits 128+N. Before, SIGQUIT, SIGABRT,
/// SIGSEGV, SIGBUS and SIGTRAP printed "*** Program crashed" and the run went on to exit 0; SIGUSR1 and the
/// timer signals killed sut-launch with no report.
@Suite struct SignalsEndToEndTests {
    static let ending: [(Int32, String)] = [
        (SIGQUIT, "SIGQUIT"), (SIGABRT, "SIGABRT"), (SIGSEGV, "SIGSEGV"), (SIGBUS, "SIGBUS"), (SIGTRAP, "SIGTRAP"),
        (SIGFPE, "SIGFPE"), (SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2"), (SIGALRM, "SIGALRM"), (SIGVTALRM, "SIGVTALRM"),
        (SIGPROF, "SIGPROF"), (SIGXCPU, "SIGXCPU"), (36, "signal 36"), // SIGRTMIN+2 with glibc
    ]

    @Test(arguments: ending)
    func aSignalSentToARunStopsItWithAReport(signal: Int32, name: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pid = directory.appendingPathComponent("pid")
        let report = directory.appendingPathComponent("r.json").path
        let script = "echo $$ > \(pid.path).tmp; mv \(pid.path).tmp \(pid.path); sleep 30; echo finished"
        let started = ContinuousClock.now
        let result = try CLI.run(["--report", report, "--kill-grace", "2s", "/bin/sh", "-c", script]) { process, _ in
            _ = CLI.eventually { FileManager.default.fileExists(atPath: pid.path) }
            kill(process.processIdentifier, signal)
        }
        #expect(result.status == 128 + signal, "\(name): \(result.stderr)")
        #expect(!result.stdout.contains("finished"))
        #expect(!result.stderr.contains("Program crashed"))
        #expect(result.stderr.contains("interrupted by \(name)"))
        #expect(ContinuousClock.now - started < .seconds(15))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect(json["exitCode"] as? Int == Int(128 + signal))
        #expect(json["interruptedBy"] as? String == name)
        let program = try #require(Int32(try String(contentsOf: pid, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!isAlive(program), "the program outlived sut-launch")
    }

    /// `test` waits for signals in a thread of its own: a crash signal sent with kill reaches it too, and the
    /// JUnit report says so.
    @Test(arguments: [(SIGSEGV, "SIGSEGV"), (SIGUSR1, "SIGUSR1")])
    func aSignalSentToTestStopsItWithItsReports(signal: Int32, name: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("junit.xml").path
        let feature = try CLI.write(
            """
            Feature: interrupted
              Scenario: slow
                Given the program "sleep"
                When I launch the program with "30"
                Then the exit code is 0
            """, "i.feature", in: directory)
        let result = try CLI.run(["test", "--step-timeout", "60s", "--junit", junit, feature]) { process, _ in
            usleep(700_000)
            kill(process.processIdentifier, signal)
        }
        #expect(result.status == 128 + signal, "\(name): \(result.stderr)")
        #expect(!result.stderr.contains("Program crashed"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<error message=\"interrupted by \(name)\""))
    }

    /// SIGTSTP stops the program with sut-launch, as a shell stops a whole job; SIGCONT continues both.
    @Test func stopAndContinueReachTheProgram() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pid = directory.appendingPathComponent("pid")
        let script = "echo $$ > \(pid.path).tmp; mv \(pid.path).tmp \(pid.path); while :; do sleep 0.05; done"
        let result = try CLI.run(["/bin/sh", "-c", script]) { process, _ in
            _ = CLI.eventually { FileManager.default.fileExists(atPath: pid.path) }
            let program = Int32(try String(contentsOf: pid, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            kill(process.processIdentifier, SIGTSTP)
            // D: the shell waits in vfork for a child that the signal stopped before its exec.
            #expect(
                CLI.eventually(5) { state(of: process.processIdentifier) == "T" && ["T", "D"].contains(state(of: program)) },
                "sut-launch \(state(of: process.processIdentifier)), program \(state(of: program))")
            kill(process.processIdentifier, SIGCONT)
            #expect(CLI.eventually(5) { state(of: process.processIdentifier) != "T" && state(of: program) != "T" })
            kill(process.processIdentifier, SIGTERM)
        }
        #expect(result.status == 143)
    }
}

/// The state letter of /proc/PID/stat (R, S, T…), "" when gone.
private func state(of pid: Int32) -> String {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
        return ""
    }
    return String(stat[stat.index(close, offsetBy: 2)])
}
