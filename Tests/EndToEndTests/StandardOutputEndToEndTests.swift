import Foundation
import Testing

/// Output our stdout cannot take is not a reader that left: `sut-launch echo hi > /dev/full` exited 0 (the output
/// silently lost), and with more output sut-launch took ENOSPC for EPIPE, killed the program with SIGPIPE and
/// blamed it (exit 141). Only EPIPE means the reader left; any other write error is exit 74 naming it.
@Suite struct StandardOutputEndToEndTests {
    /// Runs sut-launch with stdout on /dev/full; returns its exit status and stderr.
    static func runIntoFullDevice(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.sutLaunch)
        process.environment = CLI.localEnvironment
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    @Test func aLineLostOnAFullDeviceIsExit74() throws {
        let result = try Self.runIntoFullDevice(["echo", "hi"])
        #expect(result.status == 74)
        #expect(result.stderr == "sut-launch: error: cannot write to standard output: No space left on device (exit 74)\n")
    }

    @Test func theProgramIsNotBlamedForOurFullDevice() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json").path
        let result = try Self.runIntoFullDevice(["--report", report, "/bin/sh", "-c", "yes | head -c 3000000; echo done >&2"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("done\n"), "the program ran to its end: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect(json["exitCode"] as? Int == 74)
        #expect(json["programExitCode"] as? Int == 0)
        #expect(json["signal"] == nil)
        #expect((json["error"] as? String)?.contains("cannot write to standard output: No space left on device") == true)
    }

    /// R8C-9: on a full device a failing program (3), a timeout (124) and a crash (139) all became 74, where a stdout
    /// closed at start keeps them. One rule now: lost output turns only a 0 into 74; the loss is named on stderr and in
    /// the report beside the code kept.
    @Test func lostOutputKeepsAFailingProgramsTimeoutsAndSignalsCodes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json").path
        let cases: [([String], Int32)] = [
            (["sh", "-c", "echo hello; exit 3"], 3), (["-t", "1s", "sh", "-c", "echo hello; exec sleep 30"], 124),
            (["sh", "-c", "echo hello; kill -SEGV $$"], 139),
        ]
        for (arguments, expected) in cases {
            let result = try Self.runIntoFullDevice(["--report", report] + arguments)
            #expect(result.status == expected, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("cannot write to standard output: No space left on device"), "\(arguments): \(result.stderr)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            #expect(json["exitCode"] as? Int == Int(expected), "\(arguments): \(json)")
            #expect((json["error"] as? String)?.contains("cannot write to standard output") == true, "\(arguments): \(json)")
        }
    }

    @Test func sutLaunchsOwnOutputLostIsExit74() throws {
        #expect(try Self.runIntoFullDevice(["--help"]).status == 74)
        #expect(try Self.runIntoFullDevice(["--version"]).status == 74)
    }

    @Test func aPassingTestRunWhoseSummaryIsLostIsExit74() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: f
              Scenario: s
                Given the program "true"
                When I launch the program
                Then the exit code is 0
            """, "f.feature", in: directory)
        let result = try Self.runIntoFullDevice(["test", feature])
        #expect(result.status == 74, "\(result.stderr)")
    }

    /// A reader that leaves is still the program's business: it gets SIGPIPE, as when piped to head directly.
    @Test func aReaderThatLeavesIsStillSIGPIPE() throws {
        let output = try CLI.output(of: [
            "bash", "-c", "\"$0\" /bin/sh -c 'yes | head -c 3000000' | head -c 10 > /dev/null; echo ${PIPESTATUS[0]}", CLI.sutLaunch,
        ])
        #expect(output == "141\n")
    }
}
