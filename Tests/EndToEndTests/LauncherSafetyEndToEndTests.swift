import Foundation
import Testing

/// The launcher cannot hang, leak or orphan (issue 11): pipelines, closed descriptors, SIGKILL.
@Suite struct LauncherSafetyEndToEndTests {
    /// Runs `script` with sh; sut-launch is `$SUT`.
    private func shell(_ script: String) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        var environment = CLI.localEnvironment
        environment["SUT"] = CLI.sutLaunch
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: ["spawn", "posix-spawn", "foundation"])
    func whenTheReaderGoesAwayTheProgramGetsSIGPIPEAndWeEnd(launcher: String) throws {
        // `sut-launch yes | head -c 2`: yes must see its stdout closed, and sut-launch end with its status.
        let result = try shell("\"$SUT\" --launcher \(launcher) --flags-in env yes | head -c 2 >/dev/null; echo done")
        #expect(result.stdout == "done\n")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("status-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let status = try shell("( \"$SUT\" --launcher \(launcher) seq 1 100000000; echo $? > \(file) ) | head -n 1 >/dev/null; cat \(file)")
        // Foundation.Process passes sut-launch's ignored SIGPIPE on: seq gets EPIPE, prints an error and exits 1; the
        // run still ends 141, as its output could not be delivered (R4a-8).
        #expect(status.stdout == "141\n", "sut-launch's exit status: \(status.stdout)")
    }

    @Test func aProgramStartedWithStdinClosedReadsEndOfFile() throws {
        let result = try shell("\"$SUT\" cat <&- ; echo \"exit $?\"")
        #expect(result.stdout == "exit 0\n")
    }

    @Test(arguments: ["spawn", "foundation"])
    func theProgramGetsOnlyTheStandardDescriptors(launcher: String) throws {
        let result = try shell("exec 7</dev/null; \"$SUT\" --launcher \(launcher) sh -c 'ls /proc/$$/fd'")
        let fds = result.stdout.split(separator: "\n").map(String.init)
        withKnownIssue("Foundation.Process passes its own internal descriptor on") {
            #expect(fds == ["0", "1", "2"], "descriptors in the program: \(fds)")
        } when: {
            launcher == "foundation"
        }
        #expect(!fds.contains("7"))
    }

    @Test func nothingOfARunSurvivesSIGKILLOfSutLaunch() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var grandchild: Int32 = 0
        let result = try CLI.run(["sh", "-c", "sleep 300 & echo $!; wait"]) { process, out in
            #expect(
                CLI.eventually {
                    Int32((try? String(contentsOf: out, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") != nil
                })
            grandchild = Int32((try String(contentsOf: out, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            kill(process.processIdentifier, SIGKILL)
        }
        #expect(result.status == 9)
        #expect(grandchild > 0)
        #expect(CLI.eventually(3) { !isAlive(grandchild) }, "the program's child \(grandchild) outlived sut-launch")
    }

    /// CI runners kill a job's whole process group. The reaper is in a group of its own, so it outlives
    /// that kill and takes the program's group with it.
    @Test func nothingOfARunSurvivesSIGKILLOfSutLaunchsWholeProcessGroup() throws {
        var grandchild: Int32 = 0
        let process = Process()
        // python3 puts itself in a group of its own and becomes sut-launch (exec: same pid).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.environment = CLI.localEnvironment
        process.arguments = [
            "python3", "-c", "import os, sys; os.setpgid(0, 0); os.execv(sys.argv[1], sys.argv[1:])",
            CLI.sutLaunch, "sh", "-c", "sleep 300 & echo $! > \"$0\"; wait",
            FileManager.default.temporaryDirectory.appendingPathComponent("gc-\(UUID().uuidString)").path,
        ]
        let pidFile = process.arguments!.last!
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        #expect(CLI.eventually { ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").hasSuffix("\n") })
        grandchild = Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(getpgid(process.processIdentifier) == process.processIdentifier, "sut-launch is not a group leader")
        kill(-process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(grandchild > 0)
        #expect(CLI.eventually(3) { !isAlive(grandchild) }, "the program's child \(grandchild) outlived sut-launch's process group")
    }

    /// `--launcher foundation` runs sut-launch-foundation from sut-launch's directory; without it, exit 125
    /// with a line that names what is missing, and the report is still written.
    @Test func theFoundationLauncherWithoutItsCompanionIsACannotLaunchError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let alone = directory.appendingPathComponent("sut-launch").path
        try FileManager.default.copyItem(atPath: CLI.sutLaunch, toPath: alone)
        let report = directory.appendingPathComponent("report.json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: alone)
        process.environment = CLI.localEnvironment
        process.arguments = ["--launcher", "foundation", "--report", report, "true"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 125)
        #expect(message.contains("--launcher foundation: cannot start \(directory.path)/sut-launch-foundation"), "\(message)")
        #expect(message.split(separator: "\n").count == 1, "\(message)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        #expect(json?["exitCode"] as? Int == 125)

        // Beside it, the same command line runs with Foundation.Process.
        let result = try CLI.run(["--launcher", "foundation", "sh", "-c", "echo launched"])
        #expect(result.status == 0)
        #expect(result.stdout == "launched\n")
    }

    @Test func nothingOfAScenarioSurvivesSIGKILLOfTheRunner() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("pid").path
        let feature = directory.appendingPathComponent("k.feature")
        try """
        Feature: killed
          Scenario: a long program
            Given the program "sh"
            When I launch the program with "-c 'echo $$ > \(pidFile); exec sleep 300'"
            Then I see "never printed"
        """.write(to: feature, atomically: true, encoding: .utf8)
        var program: Int32 = 0
        _ = try CLI.run(["test", "--step-timeout", "60s", feature.path]) { process, _ in
            #expect(CLI.eventually { ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").hasSuffix("\n") })
            program = Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            kill(process.processIdentifier, SIGKILL)
        }
        #expect(program > 0)
        #expect(CLI.eventually(3) { !isAlive(program) }, "the scenario's program \(program) outlived the runner")
    }

    /// A long scenario run with many launches stays flat: no pipe, socket or thread kept per finished
    /// launch. Each scenario's program counts sut-launch's own descriptors and threads (its parent's).
    @Test func finishedLaunchesKeepNoDescriptorOrThread() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counts = directory.appendingPathComponent("counts").path
        let rows = (1...200).map { "      | \($0) |" }.joined(separator: "\n")
        let feature = directory.appendingPathComponent("many.feature")
        try """
        Feature: many launches
          Scenario Outline: launch <n>
            Given the route "GET /x" answers 200
            And the program "sh"
            When I launch the program with "-c 'echo $(ls /proc/$PPID/fd | wc -l) $(ls /proc/$PPID/task | wc -l) >> \(counts)'"
            Then the exit code is 0

            Examples:
              | n |
        \(rows)
        """.write(to: feature, atomically: true, encoding: .utf8)
        let result = try CLI.run(["test", "-q", feature.path])
        #expect(result.status == 0, "\(result.stdout)")
        let lines = try String(contentsOfFile: counts, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 200)
        // Nothing accumulates: the last 50 launches see no more than the first 50 after warm-up did. A thread
        // of the scenario before may still be ending when one looks, more of them on a loaded machine (the
        // maxima of the two windows differed by 3 once during a full parallel test run), so the windows'
        // medians are compared: a leak of one per launch would add ~140 between them.
        let numbers = lines.map { $0.split(separator: " ").compactMap { Int($0) } }
        let early = numbers[10..<60]
        let late = numbers[150...]
        func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
        for (index, what) in ["descriptors", "threads"].enumerated() {
            let before = median(early.map { $0[index] })
            let after = median(late.map { $0[index] })
            #expect(
                after <= before + 2,
                "sut-launch's \(what): median \(before) in launches 10-60, \(after) in launches 150-200 (all: \(numbers.map { $0[index] }))"
            )
        }
    }
}
