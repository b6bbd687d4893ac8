import Foundation
import Testing

/// `--coverage DIR` from the outside: a tiny Swift program built instrumented once (swiftc -profile-generate
/// -profile-coverage-mapping, well under a second), run by the built CLI; lcov.info read back by Debian's lcov,
/// coverage.xml checked against the Cobertura DTD with xmllint.
@Suite struct CoverageEndToEndTests {
    static let source = """
        #if canImport(Glibc)
        import Glibc
        #endif
        func login() -> Int32 { print("logged in"); return 0 }
        func search() -> Int32 { print("results"); return 0 }
        func child() -> Int32 {
            var pid: pid_t = 0
            let me = CommandLine.arguments[0]
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup(me), strdup("login"), nil]
            guard posix_spawn(&pid, me, nil, nil, argv, environ) == 0 else { return 1 }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            return 0
        }
        switch CommandLine.arguments.dropFirst().first ?? "" {
        case "login": exit(login())
        case "search": exit(search())
        case "child": exit(child())
        case "hang": while true { sleep(1) }
        default: exit(2)
        }
        """

    /// The instrumented program, built once per test process; nil when swiftc is missing or fails.
    static let program: String? = {
        guard let directory = try? CLI.temporaryDirectory() else { return nil }
        let file = directory.appendingPathComponent("app.swift")
        let binary = directory.appendingPathComponent("app").path
        guard (try? Data(Self.source.utf8).write(to: file)) != nil else { return nil }
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.environment = CLI.localEnvironment
        build.arguments = ["swiftc", "-profile-generate", "-profile-coverage-mapping", file.path, "-o", binary]
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        guard (try? build.run()) != nil else { return nil }
        build.waitUntilExit()
        return build.terminationStatus == 0 ? binary : nil
    }()

    static var ready: Bool { program != nil }

    func lcovSummary(_ file: String) throws -> String { try CLI.runTool("lcov", ["--summary", file]).output }

    @Test(.enabled(if: ready && CLI.hasCommand("lcov") && CLI.hasCommand("xmllint"), "needs swiftc, lcov and xmllint"))
    func aRunOfLoginCoversLoginAndNotSearchAndTheReportsReadBack() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coverage = directory.appendingPathComponent("cov").path
        let result = try CLI.run(["--coverage", coverage, "--report", directory.path + "/r.json", Self.program!, "login"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("coverage: lines "))
        let lcov = try String(contentsOfFile: coverage + "/lcov.info", encoding: .utf8)
        #expect(lcov.contains("FNDA:1,app.swift:$s3app5logins5Int32VyF") || lcov.contains("5login"))
        #expect(lcov.split(separator: "\n").contains { $0.hasPrefix("FNDA:0,") && $0.contains("6search") })
        let summary = try lcovSummary(coverage + "/lcov.info")
        #expect(summary.contains("lines......:"), "\(summary)")
        let schema = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/Schemas/coverage-04.dtd").path
        let check = try CLI.runTool("xmllint", ["--noout", "--nonet", "--dtdvalid", schema, coverage + "/coverage.xml"])
        #expect(check.status == 0, "\(check.output)")
        let report = try String(contentsOfFile: directory.path + "/r.json", encoding: .utf8)
        #expect(report.contains("\"coverage\""))
    }

    @Test(.enabled(if: ready, "needs swiftc"))
    func aChildOfTheProgramWritesItsOwnProfile() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coverage = directory.appendingPathComponent("cov").path
        let result = try CLI.run(["--coverage", coverage, Self.program!, "child"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(2 profiles of 1 launch)"), "\(result.stderr)")
        let lcov = try String(contentsOfFile: coverage + "/lcov.info", encoding: .utf8)
        #expect(lcov.split(separator: "\n").contains { $0.hasPrefix("FNDA:1,") && $0.contains("5login") })
    }

    @Test(.enabled(if: ready, "needs swiftc"))
    func twoScenariosInParallelAreAttributedEachToWhatTheyReached() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = """
            Feature: app
              Scenario: login
                When I run "\(Self.program!) login"
                Then the exit code is 0

              Scenario: search
                When I run "\(Self.program!) search"
                Then the exit code is 0

              Scenario: a shell writes a corrupt profile
                When I run "sh -c 'echo junk > \\"$(dirname \\"$LLVM_PROFILE_FILE\\")/junk.profraw\\"'"
                Then the exit code is 0
            """
        try Data(feature.utf8).write(to: directory.appendingPathComponent("app.feature"))
        let coverage = directory.appendingPathComponent("cov").path
        let result = try CLI.run([
            "test", "--jobs", "2", "--coverage", coverage, "--report", directory.path + "/r.json", "--messages",
            directory.path + "/m.ndjson",
            directory.path + "/app.feature",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("junk.profraw") || result.stderr.contains("junk.profraw"), "a corrupt profile is named")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any]
        let results = report?["results"] as? [[String: Any]] ?? []
        func functions(_ name: String) -> [String] {
            let coverage = results.first { $0["name"] as? String == name }?["coverage"] as? [String: Any]
            return coverage?["functions"] as? [String] ?? []
        }
        #expect(functions("login").contains { $0.contains("login") } && !functions("login").contains { $0.contains("search") })
        #expect(functions("search").contains { $0.contains("search") } && !functions("search").contains { $0.contains("login") })
        let messages = try String(contentsOf: directory.appendingPathComponent("m.ndjson"), encoding: .utf8)
        #expect(messages.components(separatedBy: "application/vnd.sut-launch.coverage+json").count == 3)
    }

    @Test func aProgramNotBuiltInstrumentedIsSaidAndFailsTheRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["--coverage", directory.path + "/cov", "/bin/true"])
        #expect(result.status == 6)
        #expect(result.stderr.contains("true wrote no profile: build it with -profile-generate -profile-coverage-mapping"))
    }

    @Test(.enabled(if: ready, "needs swiftc"))
    func aKilledLaunchIsNamedAndABelowThresholdRunFailsAfterItsReports() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coverage = directory.appendingPathComponent("cov").path
        let hung = try CLI.run(["--coverage", coverage, "--timeout", "300ms", "--kill-grace", "100ms", Self.program!, "hang"])
        #expect(hung.status == 124)
        #expect(hung.stderr.contains("wrote no profile") || hung.stderr.contains("ended before writing a profile"), "\(hung.stderr)")
        let low = try CLI.run([
            "--coverage", coverage, "--coverage-threshold", "99.5", "--report", directory.path + "/r.json", Self.program!, "login",
        ])
        #expect(low.status == 6, "\(low.stderr)")
        #expect(low.stderr.contains("below --coverage-threshold 99.5%"))
        #expect(FileManager.default.fileExists(atPath: directory.path + "/r.json"))
        #expect(FileManager.default.fileExists(atPath: coverage + "/coverage.xml"))
    }

    @Test(arguments: ["101", "-1", "NaN", "80%", "", "inf", "1e300", "0x10", "1e1", ".5", "5.", "+5"])
    func hostileThresholdsAreUsageErrors(_ value: String) throws {
        let result = try CLI.run(["--coverage", "/tmp/never-made-\(UUID().uuidString)", "--coverage-threshold", value, "/bin/true"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--coverage-threshold"))
    }

    @Test func aDirectoryWithAPercentSignIsRefusedBeforeLaunch() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["--coverage", directory.path + "/cov%p", "/bin/echo", "launched"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("the path holds %") && !result.stdout.contains("launched"))
        let fileInTheWay = directory.path + "/file"
        try Data().write(to: URL(fileURLWithPath: fileInTheWay))
        let blocked = try CLI.run(["--coverage", fileInTheWay, "/bin/echo", "launched"])
        #expect(blocked.status == 2 && !blocked.stdout.contains("launched"), "\(blocked.stderr)")
    }

    /// R9D-18: the check read DIR as written; a relative DIR under a working directory whose path holds `%` went into
    /// LLVM_PROFILE_FILE absolute, and LLVM made `ws<pid>/cov/raw/…` beside the working directory, outside DIR.
    @Test func aPercentSignInTheWorkingDirectorysPathIsRefusedBeforeLaunch() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let here = directory.appendingPathComponent("ws%p")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        let result = try CLI.run(["--coverage", "cov", "/bin/echo", "launched"], cwd: here)
        #expect(result.status == 2 && !result.stdout.contains("launched"), "\(result.stderr)")
        #expect(result.stderr.contains("its absolute path \(here.path)/cov holds %"), "\(result.stderr)")
        let beside = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(beside == ["ws%p"], "nothing made outside: \(beside)")
    }

    /// R9D-11: llvm-profdata's input list reads `WEIGHT,FILE`: a comma in DIR's path failed every coverage run (exit 6).
    @Test(.enabled(if: ready, "needs swiftc"))
    func aCommaInTheDirectorysPathIsPartOfTheName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coverage = directory.path + "/ws,1/cov,2"
        let result = try CLI.run(["--coverage", coverage, Self.program!, "login"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("coverage: lines ") && !result.stderr.contains("weight"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: coverage + "/lcov.info"))
    }

    @Test func aThresholdWithoutCoverageIsAUsageError() throws {
        let result = try CLI.run(["--coverage-threshold", "80", "/bin/true"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--coverage-threshold needs --coverage DIR"))
    }

    @Test(.enabled(if: ready && FileManager.default.fileExists(atPath: "/usr/bin/llvm-profdata"), "needs Debian's older llvm-profdata"))
    func aProfileOfAnotherLLVMVersionNamesBothVersions() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run([
            "--coverage", directory.path + "/cov", "--llvm-profdata", "/usr/bin/llvm-profdata", Self.program!, "login",
        ])
        #expect(result.status == 6)
        #expect(result.stderr.contains("raw profile format version"), "\(result.stderr)")
        #expect(result.stderr.contains("(LLVM "), "\(result.stderr)")
    }

    @Test(.enabled(if: ready, "needs swiftc"))
    func aLinkPlantedInTheDirectoryIsReplacedNotFollowed() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coverage = directory.appendingPathComponent("cov").path
        try FileManager.default.createDirectory(atPath: coverage, withIntermediateDirectories: true)
        let outside = directory.path + "/outside.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.createSymbolicLink(atPath: coverage + "/lcov.info", withDestinationPath: outside)
        let result = try CLI.run(["--coverage", coverage, Self.program!, "login"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep")
        let kind = try FileManager.default.attributesOfItem(atPath: coverage + "/lcov.info")[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
    }
}

extension CLI {
    /// Runs a tool found on PATH to completion; its stdout and stderr together.
    static func runTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.environment = CLI.localEnvironment
        process.arguments = [name] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
