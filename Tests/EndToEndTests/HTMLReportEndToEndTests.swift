import Foundation
import Testing

/// Issue 29: `test --html` and `sut-launch report`. The reports `test` writes are the bytes `report` writes from its
/// Messages; shards of one run merge, files of different runs are refused; bad Messages are one line naming
/// file:line; and the page, opened in headless Chromium, shows the counts, the failing step's diff, the near miss
/// in the journal and a link to `file:line`, with no console error and no request.
@Suite struct HTMLReportEndToEndTests {
    /// Passing (with ANSI colours), failing (a near miss and a diff, hostile output on both streams, invalid UTF-8)
    /// and undefined scenarios, names and step text holding markup.
    static let feature = """
        @demo
        Feature: Demo <script>alert(1)</script>

          @fast
          Scenario: passes
            When I run "printf 'hello \\033[31mred\\033[0m \\033]0;title\\007 world\\n'"
            Then the exit code is 0

          @slow
          Scenario: fails with diff </script><b>x</b>
            Given the route "GET /users" answers 200 with:
              \"\"\"
              ok
              \"\"\"
            When I run "sh -c 'curl -s ${SUT_MOCK_SERVER_URL}/user; printf \\"<script>alert(2)</script>\\\\n\\"; printf \\"\\\\377\\\\376 </style>\\\\n\\" >&2'"
            Then the output is:
              \"\"\"
              expected line
              \"\"\"

          Scenario: undefined one
            When I frobnicate the "</style>" widget

        """

    /// Where a test keeps what it leaves for people (the screenshot): `$SUT_TEST_ARTIFACTS` or `.build/test-artifacts`.
    static func artifactDirectory() throws -> URL {
        let root =
            ProcessInfo.processInfo.environment["SUT_TEST_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? CLI.packageRoot.appendingPathComponent(".build/test-artifacts")
        let directory = root.appendingPathComponent("HTMLReportEndToEndTests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func suite(in directory: URL, _ extra: [String] = []) throws -> CLI.Result {
        _ = try CLI.write(Self.feature, "demo.feature", in: directory)
        return try CLI.run(["test", "--run-id", "e2e:1"] + extra + ["demo.feature"], cwd: directory)
    }

    static func bytes(_ directory: URL, _ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl"))
    func reportWritesTheBytesTestWrote() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ran = try Self.suite(in: directory, ["--html", "t.html", "--junit", "t.xml", "--report", "t.json", "--messages", "m.ndjson"])
        #expect(ran.status == 1, "\(ran.stderr)")
        let again = try CLI.run(["report", "--html", "r.html", "--junit", "r.xml", "--json", "r.json", "m.ndjson"], cwd: directory)
        #expect(again.status == 1, "the run failed: report says so (\(again.stderr))")
        #expect(again.stderr.contains("3 scenarios from 1 file: 1 passed, 1 failed, 1 could not run"))
        for (test, report) in [("t.html", "r.html"), ("t.xml", "r.xml"), ("t.json", "r.json")] {
            let (written, rendered) = (try Self.bytes(directory, test), try Self.bytes(directory, report))
            #expect(written == rendered, "\(test) ≠ \(report)")
        }
        // The one-file Messages are written back unchanged.
        let copy = try CLI.run(["report", "--messages", "copy.ndjson", "m.ndjson"], cwd: directory)
        let (copied, original) = (try Self.bytes(directory, "copy.ndjson"), try Self.bytes(directory, "m.ndjson"))
        #expect(copy.status == 1 && copied == original)
    }

    @Test func shardsOfOneRunMergeAndOthersAreRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            "Feature: shards\n" + (1...6).map { "  Scenario: s\($0)\n    When I run \"true\"\n" }.joined(), "s.feature", in: directory)
        for shard in 1...2 {
            let ran = try CLI.run(
                ["test", "--run-id", "ci:9", "--shard", "\(shard)/2", "--messages", "m\(shard).ndjson", feature], cwd: directory)
            #expect(ran.status == 0, "\(ran.stderr)")
        }
        _ = try CLI.run(["test", "--run-id", "ci:10", "--messages", "other.ndjson", feature], cwd: directory)
        let merged = try CLI.run(
            ["report", "--junit", "all.xml", "--messages", "all.ndjson", "--html", "all.html", "m1.ndjson", "m2.ndjson"], cwd: directory)
        #expect(merged.status == 0, "\(merged.stderr)")
        let junit = String(decoding: try Self.bytes(directory, "all.xml"), as: UTF8.self)
        #expect(junit.components(separatedBy: "<testcase ").count == 7)
        #expect(junit.contains("<testsuites name=\"sut-launch\" tests=\"6\""))
        // The merged Messages are one run that renders the same JUnit, and pass Cucumber's schema.
        let fromMerged = try CLI.run(["report", "--junit", "again.xml", "all.ndjson"], cwd: directory)
        let (again, all) = (try Self.bytes(directory, "again.xml"), try Self.bytes(directory, "all.xml"))
        #expect(fromMerged.status == 0 && again == all)
        let schema = try ReportTrustEndToEndTests.schemaVerdict([directory.appendingPathComponent("all.ndjson").path])
        #expect(schema.hasPrefix("ok") || schema.contains("skipped"), "\(schema)")
        // Another run: refused (exit 2, naming both and --merge-any), unless told.
        let refused = try CLI.run(["report", "--junit", "x.xml", "m1.ndjson", "other.ndjson"], cwd: directory)
        #expect(
            refused.status == 2 && refused.stderr.contains("--merge-any") && refused.stderr.contains("other.ndjson"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.xml").path))
        // m1 is shard 1/2 of its run: without shard 2/2 the merge fails naming it, unless a partial one is intended.
        let forced = try CLI.run(["report", "--merge-any", "--junit", "x.xml", "m1.ndjson", "other.ndjson"], cwd: directory)
        #expect(forced.status == 1 && forced.stderr.contains("run ci:9: shard 2/2 missing"), "\(forced.stderr)")
        let partial = try CLI.run(
            ["report", "--merge-any", "--allow-missing-shards", "--junit", "x.xml", "m1.ndjson", "other.ndjson"], cwd: directory)
        #expect(partial.status == 0, "\(partial.stderr)")
        // One shard given twice: the same scenarios twice.
        let twice = try CLI.run(["report", "--junit", "y.xml", "m1.ndjson", "m1.ndjson"], cwd: directory)
        #expect(twice.status == 2 || twice.status == 3)
    }

    /// SIGTERM while `report` reads a large run: 143 at once, no output file (the attack's find: it read on for 24 s).
    @Test func aSignalStopsReportWhileItReads() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = #"{"testRunStarted":{"id":"big","timestamp":{"seconds":1,"nanos":0}}}"# + "\n"
        for index in 0..<60_000 {
            text +=
                #"{"pickle":{"id":"p\#(index)","uri":"a.feature","location":{"line":\#(index + 1)},"name":"s\#(index)","steps":[],"tags":[]}}"#
            text += "\n" + #"{"testCase":{"id":"c\#(index)","pickleId":"p\#(index)","testSteps":[]}}"# + "\n"
            text += #"{"testCaseStarted":{"id":"t\#(index)","testCaseId":"c\#(index)","attempt":0,"timestamp":{"seconds":1,"nanos":0}}}"#
            text +=
                "\n" + #"{"testCaseFinished":{"testCaseStartedId":"t\#(index)","willBeRetried":false,"timestamp":{"seconds":1,"nanos":0}}}"#
                + "\n"
        }
        text += #"{"testRunFinished":{"success":true,"timestamp":{"seconds":2,"nanos":0}}}"# + "\n"
        _ = try CLI.write(text, "big.ndjson", in: directory)
        let started = ContinuousClock.now
        let result = try CLI.run(["report", "--html", "out.html", "big.ndjson"], cwd: directory) { process, _ in
            Thread.sleep(forTimeInterval: 0.3)
            kill(process.processIdentifier, SIGTERM)
        }
        #expect(result.status == 143, "\(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.html").path))
    }

    /// Bad Messages: each a one-line error naming file:line and its exit code; a run cut short renders and exits 1.
    @Test func badMessagesAreOneLineNamingFileAndLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"true\"\n", "f.feature", in: directory)
        _ = try CLI.run(["test", "--messages", "good.ndjson", feature], cwd: directory)
        let good = String(decoding: try Self.bytes(directory, "good.ndjson"), as: UTF8.self)
        var lines = good.split(separator: "\n").map(String.init)
        let cases: [(String, String, Int32, String)] = [
            (
                "truncated.ndjson", lines.dropLast().joined(separator: "\n") + "\n" + lines.last!.prefix(20), 3,
                "truncated.ndjson:\(lines.count):21: not JSON"
            ),
            ("garbage.ndjson", "{\"meta\":{}}\nhello\n", 3, "garbage.ndjson:2:1: not JSON"),
            ("unknown.ndjson", "{\"meta\":{}}\n{\"testRunRetried\":{}}\n", 3, "unknown.ndjson:2: unknown envelope \"testRunRetried\""),
            (
                "cut.ndjson", lines.filter { !$0.hasPrefix("{\"testRunFinished\"") }.joined(separator: "\n") + "\n", 1,
                "cut.ndjson: incomplete"
            ),
        ]
        for (name, text, code, message) in cases {
            _ = try CLI.write(text, name, in: directory)
            let result = try CLI.run(["report", "--html", "out.html", name], cwd: directory)
            #expect(result.status == code, "\(name): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").filter { $0.contains(name) }.count == 1, "\(result.stderr)")
        }
        lines.removeAll()
        // Usage: no file, no output, a missing file.
        #expect(try CLI.run(["report", "--html", "o.html"], cwd: directory).status == 2)
        #expect(try CLI.run(["report", "good.ndjson"], cwd: directory).status == 2)
        #expect(try CLI.run(["report", "--html", "o.html", "missing.ndjson"], cwd: directory).status == 2)
        #expect(try CLI.run(["report", "--html", "good.ndjson", "good.ndjson"], cwd: directory).status == 2) // would overwrite its input
    }

    static let browser = ["chromium", "chromium-browser"].first(where: CLI.hasCommand)

    /// Runs headless Chromium on `page` in its own session (killed as a group): the DOM after scripts ran, the
    /// browser's log (console messages are `:CONSOLE` lines) and a screenshot.
    static func openInBrowser(_ page: String, directory: URL, screenshot: String) throws -> (dom: String, log: String) {
        let script = """
            import os, signal, subprocess, sys
            browser, page, out, shot, profile = sys.argv[1:6]
            def run(args, path):
                with open(path, 'wb') as o, open(path + '.log', 'wb') as e:
                    p = subprocess.Popen([browser, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
                        '--enable-logging=stderr', '--v=0', '--user-data-dir=' + profile] + args + ['file://' + page],
                        stdout=o, stderr=e, stdin=subprocess.DEVNULL, start_new_session=True)
                    try:
                        p.wait(timeout=90)
                    finally:
                        try: os.killpg(p.pid, signal.SIGKILL)
                        except ProcessLookupError: pass
            run(['--dump-dom', '--virtual-time-budget=5000'], out)
            run(['--window-size=1200,1400', '--hide-scrollbars', '--screenshot=' + shot], out + '.shot')
            """
        let dom = directory.appendingPathComponent("dom.html").path
        _ = try CLI.output(of: ["python3", "-c", script, browser!, page, dom, screenshot, directory.appendingPathComponent("profile").path])
        let log = (try? String(contentsOfFile: dom + ".log", encoding: .utf8)) ?? ""
        return (try String(contentsOfFile: dom, encoding: .utf8), log)
    }

    @Test(.enabled(if: browser != nil && CLI.hasCommand("curl"), "needs chromium (scripts/install-test-deps.sh installs it) and curl"))
    func chromiumShowsTheRunWithoutErrorsOrRequests() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.suite(in: directory, ["--html", "report.html"])
        let page = directory.appendingPathComponent("report.html").path
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\""))
        #expect(html.range(of: #"(src|href)\s*=\s*["']?\s*(https?:|//)"#, options: .regularExpression) == nil)
        let shot = try Self.artifactDirectory().appendingPathComponent("report.png").path
        let (dom, log) = try Self.openInBrowser(page, directory: directory, screenshot: shot)
        // Counts, verdict, failures first and open, the diff, the near miss, the deep link, the transcript's colour.
        #expect(dom.contains("3 scenarios, 2 not passed, exit code 1"), "\(dom.prefix(2000))")
        #expect(dom.contains(">failed: 1<") && dom.contains(">undefined: 1<") && dom.contains(">passed: 1<"))
        #expect(dom.contains("<span class=\"del\">-expected line</span>"))
        #expect(dom.contains("<span class=\"ins\">+&lt;script&gt;alert(2)&lt;/script&gt;</span>"))
        #expect(dom.contains("Nearest stub: GET /users (demo.feature:11:1)"))
        #expect(dom.contains("<a class=\"loc\" href=\"#demo.feature:10\">demo.feature:10</a>"))
        #expect(dom.range(of: #"<details class="sc s-failed" id="demo.feature:10" open=""[^>]*>"#, options: .regularExpression) != nil)
        // Hostile text stayed text: no element the data made, the page's own two scripts only.
        #expect(!dom.contains("<b>x</b>") && dom.components(separatedBy: "<script").count == 3)
        #expect(!dom.contains("\u{1B}"))
        #expect(!log.contains(":CONSOLE"), "console output (an error, or a request CSP blocked): \(log)")
        #expect(FileManager.default.fileExists(atPath: shot))
    }

    /// A hand-written run with a retried scenario (attempt 0 failed and retried, attempt 1 passed), as retries will
    /// write it: the page shows both attempts.
    @Test(.enabled(if: browser != nil, "needs chromium (scripts/install-test-deps.sh installs it)"))
    func chromiumShowsEveryAttemptOfARetriedScenario() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let messages = [
            #"{"meta":{"protocolVersion":"27.0.0","implementation":{"name":"x"},"runtime":{"name":"x"},"os":{"name":"x"},"cpu":{"name":"x"}}}"#,
            #"{"pickle":{"id":"p1","uri":"a.feature","location":{"line":3},"name":"flaky one","steps":[{"id":"ps1","text":"I do it","astNodeIds":[]}],"tags":[]}}"#,
            #"{"testRunStarted":{"id":"r","timestamp":{"seconds":10,"nanos":0}}}"#,
            #"{"testCase":{"id":"tc1","pickleId":"p1","testSteps":[{"id":"ts1","pickleStepId":"ps1"}]}}"#,
            #"{"testCaseStarted":{"id":"a0","testCaseId":"tc1","attempt":0,"timestamp":{"seconds":10,"nanos":0}}}"#,
            #"{"testStepFinished":{"testCaseStartedId":"a0","testStepId":"ts1","testStepResult":{"status":"FAILED","duration":{"seconds":0,"nanos":0},"message":"first try broke"},"timestamp":{"seconds":10,"nanos":1}}}"#,
            #"{"testCaseFinished":{"testCaseStartedId":"a0","willBeRetried":true,"timestamp":{"seconds":10,"nanos":2}}}"#,
            #"{"testCaseStarted":{"id":"a1","testCaseId":"tc1","attempt":1,"timestamp":{"seconds":11,"nanos":0}}}"#,
            #"{"testStepFinished":{"testCaseStartedId":"a1","testStepId":"ts1","testStepResult":{"status":"PASSED","duration":{"seconds":0,"nanos":0}},"timestamp":{"seconds":11,"nanos":1}}}"#,
            #"{"testCaseFinished":{"testCaseStartedId":"a1","willBeRetried":false,"timestamp":{"seconds":11,"nanos":2}}}"#,
            #"{"testRunFinished":{"success":true,"timestamp":{"seconds":12,"nanos":0}}}"#,
        ]
        _ = try CLI.write(messages.joined(separator: "\n") + "\n", "retried.ndjson", in: directory)
        let result = try CLI.run(["report", "--html", "retried.html", "retried.ndjson"], cwd: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let page = directory.appendingPathComponent("retried.html").path
        let (dom, log) = try Self.openInBrowser(
            page + "#a.feature:3", directory: directory, screenshot: try Self.artifactDirectory().appendingPathComponent("retried.png").path
        )
        #expect(dom.contains("2 attempts") && dom.contains(">flaky<"))
        #expect(dom.contains("Attempt 1: failed (retried)") && dom.contains("Attempt 2: passed") && dom.contains("first try broke"))
        #expect(!log.contains(":CONSOLE"), "\(log)")
    }

    /// The page showed step texts only: a failing `Then the output is:` without its expected text, a table nowhere,
    /// and the search could not find either. Each doc string and table is under its step (as text: markup stays text).
    @Test(.enabled(if: browser != nil, "needs chromium (scripts/install-test-deps.sh installs it)"))
    func chromiumShowsStepsDocStringsAndTables() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: D
              Scenario: s
                Given the feature flags:
                  | greeting | TABLEMARK |
                Given a file "a.txt" with:
                  \"\"\"
                  DOCMARK2 <b>x</b>
                  \"\"\"
                When I run "false"
                Then the exit code is 0

            """, "e.feature", in: directory)
        let result = try CLI.run(["test", "--html", "e.html", "e.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let page = directory.appendingPathComponent("e.html").path
        let (dom, log) = try Self.openInBrowser(
            page + "#e.feature:2", directory: directory,
            screenshot: try Self.artifactDirectory().appendingPathComponent("arguments.png").path)
        #expect(dom.contains("<pre class=\"arg\">DOCMARK2 &lt;b&gt;x&lt;/b&gt;</pre>"), "\(dom.prefix(3000))")
        #expect(dom.contains("<pre class=\"arg\">| greeting | TABLEMARK |</pre>"), "\(dom.prefix(3000))")
        #expect(!dom.contains("<b>x</b>"))
        #expect(!log.contains(":CONSOLE"), "\(log)")
    }
}
