import Foundation
import Testing

/// Usage errors and the reports named on the same command line: an earlier run's passing report must never stand
/// as this run's.
@Suite struct UsageErrorReportsEndToEndTests {
    /// R8C-5: an unknown option followed by a word (`--timout 5s`, `--flg a=1`, `--stubs st.json`) ended the options at
    /// the word, so a `--report` after it was never read: exit 2 with the first run's passing report left in place.
    /// R9C-3: the same with a short option (`-F a=1`, a typo of `-f`; `-qZ`, `-Zq`, `-xy`), and `-timeout 5s`.
    @Test func anUnknownOptionWithAWordAfterItStillWritesTheReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json").path
        let shorts = [
            ["-Z", "a=1"], ["-qZ", "a=1"], ["-Zq", "a=1"], ["-xy", "5s"], ["-T", "5s"], ["-F", "a=1"], ["-E", "A=1"], ["-Z"],
        ]
        for mistake in [["--timout", "5s"], ["--flg", "a=1"], ["--stubs", "st.json"], ["--bogus", "a=1"], ["-timeout", "5s"]] + shorts {
            let passed = try CLI.run(["-q", "--report", report, "true"])
            #expect(passed.status == 0, "\(passed.stderr)")
            let result = try CLI.run(mistake + ["--report", report, "sh", "-c", "exit 1"])
            #expect(result.status == 2 && result.stderr.contains("sut-launch: error: "), "\(mistake): \(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            #expect(json?["exitCode"] as? Int == 2, "\(mistake): \(String(describing: json))")
            #expect(json?["launched"] as? Bool == false, "\(mistake): \(String(describing: json))")
        }
    }

    /// R10C-1: an option missing its value took the `--report`/`--journal` after it as that value (`-t --report r.json`):
    /// exit 2 with the earlier run's passing report, or its journal, left whole. Both launchers.
    @Test func anOptionMissingItsValueDoesNotSwallowTheReportAfterIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json").path
        let options = ["-t", "--timeout", "-f", "--flag", "-a", "-e", "--env", "--kill-grace", "--flags-in", "--env-file", "--cwd"]
        for (launcher, option) in options.map({ ([String](), $0) }) + [(["--launcher", "foundation"], "-t")] {
            let passed = try CLI.run(["-q", "--report", report, "true"])
            #expect(passed.status == 0, "\(passed.stderr)")
            let result = try CLI.run(launcher + [option, "--report", report, "sh", "-c", "exit 1"])
            #expect(result.status == 2 && result.stderr.contains("the next word '--report' is an option"), "\(option): \(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            #expect(json?["exitCode"] as? Int == 2 && json?["launched"] as? Bool == false, "\(option): \(String(describing: json))")
        }
        let stub = try CLI.write(#"{"routes":[{"path":"/x","body":"hi"}]}"#, "st.json", in: directory)
        let journal = directory.appendingPathComponent("j.json").path
        try #"{"total":1,"dropped":0,"requests":[{"sequence":1,"url":"/x"}]}"#.write(toFile: journal, atomically: true, encoding: .utf8)
        let result = try CLI.run(["-q", "--port", "0", "--stub", stub, "-t", "--journal", journal, "true"])
        #expect(result.status == 2, "\(result.stderr)")
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(!text.contains(#""sequence":1"#), "\(text)")
    }

    /// R8C-5: `test --bogus --junit j.xml` rewrote `--report` but left an earlier run's passing JUnit
    /// (`tests="0" failures="0" errors="0"`) for a CI publisher to show. The JUnit now holds the usage error.
    @Test func aUsageErrorOfTestRewritesTheJUnitToo() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"true\"\n", "a.feature", in: directory)
        let junit = directory.appendingPathComponent("j.xml").path
        let report = directory.appendingPathComponent("r.json").path
        let passed = try CLI.run(["test", "--junit", junit, feature])
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        for mistake in [["--bogus"], ["--tgas", "@x"]] {
            let result = try CLI.run(["test"] + mistake + ["--junit", junit, "--report", report, feature])
            #expect(result.status == 2, "\(mistake): \(result.stderr)")
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains("errors=\"1\"") && xml.contains("unknown option"), "\(mistake): \(xml)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            #expect(json?["exitCode"] as? Int == 2, "\(mistake): \(String(describing: json))")
        }
    }

    /// R9C-4: a usage error rewrote `--report` but left an earlier run's journal whole (`"total":1` with its request), as if
    /// this run had received it; the same for `serve --journal` and `test`'s `--messages` and `--html`. Each now holds the
    /// placeholder that says the run did not finish.
    @Test func aUsageErrorLeavesNoEarlierJournalOrMessagesWhole() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stub = try CLI.write(#"{"routes":[{"path":"/x","body":"hi"}]}"#, "st.json", in: directory)
        let journal = directory.appendingPathComponent("j.json").path
        let marker = "sut-launch: the run that writes this report did not finish"
        let earlier = #"{"total":1,"dropped":0,"requests":[{"sequence":1,"url":"/x"}]}"#
        for mistake in [["--timout", "3"], ["-f", "k:=["], ["-t", "bad"], ["--bogus"], ["-F", "a=1"]] {
            try earlier.write(toFile: journal, atomically: true, encoding: .utf8)
            let result = try CLI.run(["-q", "--port", "0", "--stub", stub, "--journal", journal] + mistake + ["true"])
            #expect(result.status == 2, "\(mistake): \(result.stderr)")
            let text = try String(contentsOfFile: journal, encoding: .utf8)
            #expect(text.contains(marker) && !text.contains("/x"), "\(mistake): \(text)")
        }
        try earlier.write(toFile: journal, atomically: true, encoding: .utf8)
        let serve = try CLI.run(["serve", "--journal", journal, "--port", "0", "--bogus", stub])
        let served = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(serve.status == 2 && served.contains(marker), "\(serve.stderr) \(served)")

        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"true\"\n", "a.feature", in: directory)
        let messages = directory.appendingPathComponent("m.ndjson").path
        let html = directory.appendingPathComponent("r.html").path
        let passed = try CLI.run(["test", "--messages", messages, "--html", html, feature])
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        let failed = try CLI.run(["test", "--messages", messages, "--html", html, "--bogus", feature])
        #expect(failed.status == 2, "\(failed.stderr)")
        for path in [messages, html] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(marker), "\(path): \(text.prefix(300))")
        }
    }

    /// R9C-6: `--report o.json > o.json` advised `--report /dev/fd/3 3>report.json`, which is refused (fd 3 on a file is a
    /// link), and `--journal o.json 2>o.json` named `--report`. The remedy names the option refused and passes when
    /// followed: another file for a file console; the report on the pipe and the console moved away for a pipe.
    @Test func theConsolesRemedyNamesTheOptionAndPassesWhenFollowed() throws {
        let script = #"""
            cd "$2"; echo '{"routes":[{"path":"/x","body":"hi"}]}' > st.json
            "$1" -q --report o.json echo hi > o.json 2> file.err; echo "file $?"
            "$1" -q --port 0 --stub st.json --journal j.json echo hi 2> j.json; echo "journal $?"; cp j.json journal.err
            "$1" -q --report /dev/stdout echo hi 2> pipe.err | cat > /dev/null; echo "pipe ${PIPESTATUS[0]}"
            "$1" -q --report /dev/fd/3 echo hi 3>&1 1>console.txt | cat > piped.json; echo "followed ${PIPESTATUS[0]}"
            """#
        let (output, directory) = try LauncherLifecycleEndToEndTests.bash(script)
        defer { try? FileManager.default.removeItem(at: directory) }
        let read = { (name: String) in (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        #expect(output.contains("file 2\n") && output.contains("journal 2\n") && output.contains("pipe 2\n"), "\(output)")
        #expect(read("file.err").contains("write it to another file than the console's stdout (--report "), "\(read("file.err"))")
        #expect(read("journal.err").contains("(--journal ") && !read("journal.err").contains("--report"), "\(read("journal.err"))")
        #expect(read("pipe.err").contains("move the console away: --report /dev/fd/3 3>&1 1>&2"), "\(read("pipe.err"))")
        #expect(output.contains("followed 0\n") && read("piped.json").contains("\"exitCode\""), "\(output) \(read("piped.json"))")
    }
}
