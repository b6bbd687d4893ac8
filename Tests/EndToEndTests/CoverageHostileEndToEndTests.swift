import Foundation
import Testing

/// `--coverage` against the attacks of an outside review (docs/threat-model.md, "Coverage"): names that forge
/// lcov records or terminal and workflow commands, links planted in DIR, two runs on one DIR, stale reports,
/// signals during the merge, tools that never stop writing, profiles of other binaries, empty runs.
@Suite struct CoverageHostileEndToEndTests {
    static let ready = CoverageEndToEndTests.ready
    static var program: String { CoverageEndToEndTests.program! }

    /// A file named to forge lcov records, and one that holds ESC and OSC, compiled into an instrumented program.
    static let forged: String? = CoverageBuild.build([
        (
            "main.swift",
            "func used() -> Int { 1 }\nfunc unused() -> Int {\n    let a = 2\n    return a\n}\nprint(used() + forged() + escaped())\n"
        ),
        ("q\nend_of_record\nSF:Fake.swift\nDA:1,1\nDA:2,1\nDA:3,1\nend_of_record\nSF:x.swift", "func forged() -> Int { 1 }\n"),
        ("esc\u{1B}]0;PWNED\u{07}\u{1B}[2J.swift", "func escaped() -> Int { 1 }\n"),
    ])

    static func coverage(_ result: CLI.Result) -> String { result.stderr + result.stdout }

    @Test(.enabled(if: forged != nil, "needs swiftc"))
    func aSourceNameWithALineBreakForgesNoRecordAndEveryFigureIsOne() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cov = directory.path + "/cov"
        let result = try CLI.run(["--coverage", cov, Self.forged!])
        #expect(result.status == 0, "\(result.stderr)")
        let lcov = try String(contentsOfFile: cov + "/lcov.info", encoding: .utf8)
        let xml = try String(contentsOfFile: cov + "/coverage.xml", encoding: .utf8)
        #expect(!lcov.contains("SF:Fake.swift") && !xml.contains("Fake.swift"), "\(lcov)")
        #expect(result.stderr.contains("has no record in lcov.info: its name holds a line break"), "\(result.stderr)")
        // The console's line figure is coverage.xml's.
        let covered = xml.firstMatch(of: /lines-covered="(\d+)" lines-valid="(\d+)"/)
        #expect(covered != nil && result.stderr.contains("(\(covered!.1)/\(covered!.2))"), "\(result.stderr)\n\(xml.prefix(400))")
        let summary = try Data(contentsOf: URL(fileURLWithPath: cov + "/summary.txt"))
        #expect(!summary.contains(0x1B) && !summary.contains(0x07), "summary.txt holds no raw ESC or BEL")
        #expect(!result.stderr.utf8.contains(0x1B))
    }

    /// A program whose uncovered code sits in files named with a line break (LF, and U+2028, which was named left
    /// out yet written to lcov.info).
    static let brokenNames: String? = CoverageBuild.build([
        ("main.swift", "print(helper())\n"),
        ("u\nncovered.swift", "func helper() -> Int { 1 }\n" + (1...30).map { "func unused\($0)() -> Int { \($0) }\n" }.joined()),
        ("ls\u{2028}x.swift", "func separated() -> Int {\n    let a = 2\n    return a\n}\n"),
    ])

    /// R9D-4, R9D-5: the files' records are left out of lcov.info only; their lines were measured and stay in the
    /// totals and the threshold (left out of them, a run at 1.9 % passed a threshold of 90 at "100.0%").
    @Test(.enabled(if: brokenNames != nil, "needs swiftc"))
    func aSourceNameWithALineBreakHasNoLcovRecordButCountsInTheTotals() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cov = directory.path + "/cov"
        let report = directory.path + "/r.json"
        let result = try CLI.run(["--coverage", cov, "--coverage-threshold", "90", "--report", report, Self.brokenNames!])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("2 source files have no record in lcov.info"), "\(result.stderr)")
        #expect(result.stderr.contains("u\\u{A}ncovered.swift") && result.stderr.contains("ls\\u{2028}x.swift"), "\(result.stderr)")
        let lcov = try String(contentsOfFile: cov + "/lcov.info", encoding: .utf8)
        #expect(!lcov.contains("ncovered.swift") && !lcov.contains("x.swift") && lcov.contains("main.swift"), "\(lcov)")
        let totals = try #require(result.stderr.firstMatch(of: /coverage: lines [0-9.]+% \((\d+)\/(\d+)\)/))
        #expect(Int(totals.2)! > 30 && Int(totals.1)! < Int(totals.2)!, "\(result.stderr)")
        let xml = try String(contentsOfFile: cov + "/coverage.xml", encoding: .utf8)
        #expect(xml.contains("lines-valid=\"\(totals.2)\""), "\(xml.prefix(400))")
        let summary = try String(contentsOfFile: cov + "/summary.txt", encoding: .utf8)
        #expect(summary.contains("u\\u{A}ncovered.swift"), "\(summary)")
    }

    /// R9D-5's second half: a source file whose name is not UTF-8 (`ff\xffx.c`) was U+FFFD in coverage.xml and
    /// summary.txt (a name no file has; lcov.info keeps the byte) without a word. A note says so, naming it as they show it.
    @Test(.enabled(if: CLI.hasCommand("clang") && ready, "needs clang and the toolchain's llvm-cov"))
    func aSourceNameThatIsNotUTF8IsSaidInANote() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let build = try CLI.output(
            of: [
                "sh", "-c",
                #"cd "$0" && printf 'int f(void){return 1;}\n' > "$(printf 'ff\377x.c')" && printf 'int f(void);\nint main(void){return f()-1;}\n' > main.c && clang -fprofile-instr-generate -fcoverage-mapping main.c ff*x.c -o app && echo built"#,
                directory.path,
            ])
        try #require(build.contains("built"), "clang could not build an instrumented program: \(build)")
        let cov = directory.path + "/cov"
        let result = try CLI.run(["--coverage", cov, directory.path + "/app"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("coverage: 1 source file name is not UTF-8"), "\(result.stderr)")
        #expect(result.stderr.contains("ff\u{FFFD}x.c"), "\(result.stderr)")
        let lcov = try Data(contentsOf: URL(fileURLWithPath: cov + "/lcov.info"))
        #expect(lcov.range(of: Data([0x66, 0x66, 0xFF, 0x78])) != nil, "lcov.info keeps the byte")
    }

    /// A launch stopped at its timeout is named in a note (Console.line): its path must not start a line.
    @Test func aProgramPathWithALineBreakPrintsNoWorkflowCommand() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let odd = directory.path + "/s\n::error file=x.swift,line=1::INJECTED\n\u{1B}]0;TITLE\u{07}"
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: odd)
        let result = try CLI.run(["--coverage", directory.path + "/cov", "--timeout", "200ms", "--kill-grace", "100ms", odd, "5"])
        #expect(result.status == 124, "\(result.stderr)")
        #expect(result.stderr.contains("not counted"), "\(result.stderr)")
        let lines = (result.stderr + result.stdout).split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("::") }, "\(result.stderr)")
        #expect(!result.stderr.utf8.contains(0x1B))
    }

    @Test(.enabled(if: ready, "needs swiftc"))
    func aLinkOrFilePlantedAtAScenarioDirectoryIsReplacedNotFollowed() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = "Feature: f\n  Scenario: a\n    When I run \"\(Self.program) login\"\n    Then the exit code is 0\n"
        try Data(feature.utf8).write(to: directory.appendingPathComponent("f.feature"))
        let cov = directory.path + "/cov"
        let arguments = ["test", "--coverage", cov, "--report", directory.path + "/r.json", directory.path + "/f.feature"]
        #expect(try CLI.run(arguments).status == 0)
        let id = try #require(try FileManager.default.contentsOfDirectory(atPath: cov + "/raw").first)
        for plant in ["link", "file"] {
            let victim = directory.path + "/vic"
            try? FileManager.default.removeItem(atPath: victim)
            try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
            try FileManager.default.removeItem(atPath: cov + "/raw/" + id)
            if plant == "link" {
                try FileManager.default.createSymbolicLink(atPath: cov + "/raw/" + id, withDestinationPath: victim)
            } else {
                try Data("x".utf8).write(to: URL(fileURLWithPath: cov + "/raw/" + id))
            }
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "\(plant): \(Self.coverage(result))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: victim).isEmpty, "\(plant): nothing lands outside DIR")
            #expect(Self.coverage(result).contains("(1 profile of 1 launch)"), "\(plant): \(Self.coverage(result))")
        }
    }

    @Test(.enabled(if: ready, "needs swiftc"))
    func aSignalDuringTheMergeEndsTheRunAt128PlusNAndStopsTheTool() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tools = try CoverageBuild.fakeTools(in: directory, profdata: "sleep 20; exec \"$REAL/llvm-profdata\" \"$@\"")
        var started = Date()
        let result = try CLI.run(
            [
                "--coverage", directory.path + "/cov", "--report", directory.path + "/r.json", "--llvm-profdata", tools, Self.program,
                "login",
            ],
            whileRunning: { process, _ in
                started = Date()
                Thread.sleep(forTimeInterval: 3)
                kill(process.processIdentifier, SIGINT)
            })
        #expect(result.status == 130, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 15, "the tool was stopped, not waited for")
        let report = try String(contentsOfFile: directory.path + "/r.json", encoding: .utf8)
        #expect(report.contains("\"interruptedBy\""), "\(report)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/cov/lcov.info"))
    }

    @Test func aSecondRunOnTheSameDirectoryIsRefusedWhileTheFirstRuns() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cov = directory.path + "/cov"
        var second: CLI.Result?
        _ = try CLI.run(
            ["--coverage", cov, "/bin/sleep", "3"],
            whileRunning: { _, _ in
                Thread.sleep(forTimeInterval: 0.7)
                second = try CLI.run(["--coverage", cov, "/bin/true"])
            })
        #expect(second?.status == 2, "\(second?.stderr ?? "")")
        #expect(second?.stderr.contains("another sut-launch run is using this directory") == true, "\(second?.stderr ?? "")")
    }

    @Test(.enabled(if: ready, "needs swiftc"))
    func theReportsOfAnEarlierRunAreGoneWhenTheNextMeasuresNothing() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cov = directory.path + "/cov"
        #expect(try CLI.run(["--coverage", cov, Self.program, "login"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: cov + "/coverage.xml"))
        let again = try CLI.run(["--coverage", cov, "/bin/true"])
        #expect(again.status == 6)
        for name in ["lcov.info", "coverage.xml", "summary.txt", "merged.profdata"] {
            #expect(!FileManager.default.fileExists(atPath: cov + "/" + name), "\(name) of the earlier run is gone")
        }
    }

    @Test(.enabled(if: ready, "needs swiftc"))
    func profilesOfAnotherInstrumentedBinaryAreNamedAndAWrapperIsExplained() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let launcher = try #require(
            CoverageBuild.build([
                (
                    "b.swift",
                    "import Glibc\nvar pid: pid_t = 0\nlet argv: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments[1]), strdup(\"login\"), nil]\n"
                        + "posix_spawn(&pid, CommandLine.arguments[1], nil, nil, argv, environ)\nvar status: Int32 = 0\nwaitpid(pid, &status, 0)\n"
                )
            ]))
        let result = try CLI.run(["--coverage", directory.path + "/cov", launcher, Self.program])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("written by a program a launch started from another binary"), "\(result.stderr)")
        let wrapper = try CLI.write("#!/bin/sh\nexec \(Self.program) login\n", "wrap.sh", in: directory)
        chmod(wrapper, 0o755)
        let wrapped = try CLI.run(["--coverage", directory.path + "/cov", wrapper])
        #expect(wrapped.status == 6)
        #expect(wrapped.stderr.contains("wrapper script?"), "\(wrapped.stderr)")
    }

    /// A report that cannot be written (here a directory planted at coverage.xml by the program; a full disk alike)
    /// is exit 74, and no half set of reports (a new lcov.info beside no coverage.xml) is left.
    @Test(.enabled(if: ready, "needs swiftc"))
    func aReportThatCannotBeWrittenIsExit74AndNoneIsKept() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cov = directory.path + "/cov"
        let feature = """
            Feature: f
              Scenario: a
                When I run "\(Self.program) login"
                And I run "/bin/sh -c 'mkdir -p \(cov)/coverage.xml/x'"
                Then the exit code is 0
            """
        try Data(feature.utf8).write(to: directory.appendingPathComponent("f.feature"))
        let result = try CLI.run(["test", "--coverage", cov, directory.path + "/f.feature"])
        #expect(result.status == 74, "\(Self.coverage(result))")
        #expect(!FileManager.default.fileExists(atPath: cov + "/lcov.info"), "no lcov.info beside a missing coverage.xml")
    }

    @Test(arguments: [["--tags", "@none", "--allow-empty"], ["--shard", "2/2"]])
    func anEmptySelectionOrShardWithCoveragePasses(_ selection: [String]) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = "Feature: f\n  Scenario: a\n    When I run \"/bin/true\"\n    Then the exit code is 0\n"
        try Data(feature.utf8).write(to: directory.appendingPathComponent("f.feature"))
        let result = try CLI.run(["test", "--coverage", directory.path + "/cov"] + selection + [directory.path + "/f.feature"])
        #expect(result.status == 0, "\(Self.coverage(result))")
        #expect(Self.coverage(result).contains("nothing launched, nothing measured"), "\(Self.coverage(result))")
    }

    @Test func goDataAloneIsNotAFailureAndAnEarlierRunsGoDataIsCleared() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cov = directory.path + "/cov"
        let go = try CLI.run(["--coverage", cov, "/bin/sh", "-c", "echo x > \"$GOCOVERDIR/covmeta.1\""])
        #expect(go.status == 0, "\(go.stderr)")
        #expect(go.stderr.contains("go tool covdata") && !go.stderr.contains("-profile-generate"), "\(go.stderr)")
        let again = try CLI.run(["--coverage", cov, "/bin/true"])
        #expect(again.status == 6)
        #expect(!again.stderr.contains("Go coverage data"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cov + "/go/covmeta.1"))
    }

    @Test func aLaunchStoppedByItsTimeoutIsNotToldToRebuild() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["--coverage", directory.path + "/cov", "--timeout", "300ms", "--kill-grace", "100ms", "/bin/sleep", "5"])
        #expect(result.status == 124)
        #expect(result.stderr.contains("every launch was stopped (timed out)"), "\(result.stderr)")
        #expect(!result.stderr.contains("build it with"), "\(result.stderr)")
    }

    @Test func unreadableProfilesAreCountedExactly() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = "d=$(dirname \"$LLVM_PROFILE_FILE\"); i=0; while [ $i -lt 2000 ]; do echo junk > \"$d/$i-x.profraw\"; i=$((i+1)); done"
        let result = try CLI.run(["--coverage", directory.path + "/cov", "/bin/sh", "-c", script])
        #expect(result.status == 6)
        #expect(result.stderr.contains("coverage: 2000 raw profiles could not be read"), "\(result.stderr.prefix(600))")
    }

    @Test func aHugeSparseProfileIsRefusedByItsSize() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = "f=$(dirname \"$LLVM_PROFILE_FILE\")/1-big.profraw; printf '\\201rforpl\\377' > \"$f\"; truncate -s 4G \"$f\""
        let started = Date()
        let result = try CLI.run(["--coverage", directory.path + "/cov", "/bin/sh", "-c", script])
        #expect(result.status == 6)
        #expect(result.stderr.contains("1-big.profraw (4096 MiB, over the 1024 MiB limit)"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test(.enabled(if: ready, "needs swiftc"))
    func aToolThatNeverStopsWritingIsStoppedAtTheCap() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tools = try CoverageBuild.fakeTools(in: directory, cov: "exec yes")
        let started = Date()
        let result = try CLI.run(["--coverage", directory.path + "/cov", "--llvm-profdata", tools, Self.program, "login"])
        #expect(result.status == 6)
        #expect(result.stderr.contains("wrote more than 256 MiB"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 120, "stopped at the cap, not at the 300 s deadline")
    }

    @Test func aProfileVariableGivenWithEnvIsRefusedNotReplacedSilently() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["--coverage", directory.path + "/cov", "-e", "LLVM_PROFILE_FILE=/tmp/x.profraw", "/bin/echo", "launched"])
        #expect(result.status == 2 && !result.stdout.contains("launched"), "\(result.stderr)")
        #expect(result.stderr.contains("LLVM_PROFILE_FILE is set for the program"), "\(result.stderr)")
    }

    @Test func aDirectoryWithALineBreakIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["--coverage", directory.path + "/a\nb", "/bin/echo", "launched"])
        #expect(result.status == 2 && !result.stdout.contains("launched"), "\(result.stderr)")
        #expect(result.stderr.contains("control character"))
    }
}

/// Instrumented programs and fake tools for the coverage tests.
enum CoverageBuild {
    /// Compiles `files` (name, source) with `-profile-generate -profile-coverage-mapping`; nil when swiftc fails.
    static func build(_ files: [(String, String)]) -> String? {
        guard let directory = try? CLI.temporaryDirectory() else { return nil }
        var paths: [String] = []
        for (name, source) in files {
            let path = directory.appendingPathComponent(name).path
            guard FileManager.default.createFile(atPath: path, contents: Data(source.utf8)) else { return nil }
            paths.append(path)
        }
        let binary = directory.appendingPathComponent("prog").path
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.environment = CLI.localEnvironment
        build.arguments = ["swiftc", "-profile-generate", "-profile-coverage-mapping"] + paths + ["-o", binary]
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        guard (try? build.run()) != nil else { return nil }
        build.waitUntilExit()
        return build.terminationStatus == 0 ? binary : nil
    }

    /// `DIR/tools/llvm-profdata` and `llvm-cov` beside it: scripts that run `profdata`/`cov` (with `$REAL`, the
    /// directory of the real tools beside swift) or pass through. Returns the llvm-profdata path.
    static func fakeTools(in directory: URL, profdata: String? = nil, cov: String? = nil) throws -> String {
        let swift = try CLI.runTool("sh", ["-c", "dirname \"$(readlink -f \"$(command -v swift)\")\""]).output
        let real = swift.trimmingCharacters(in: .whitespacesAndNewlines)
        let tools = directory.appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        for (name, body) in [("llvm-profdata", profdata), ("llvm-cov", cov)] {
            let path = tools.appendingPathComponent(name).path
            let script = "#!/bin/sh\nREAL='\(real)'\n" + (body ?? "exec \"$REAL/\(name)\" \"$@\"") + "\n"
            try Data(script.utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }
        return tools.appendingPathComponent("llvm-profdata").path
    }
}
