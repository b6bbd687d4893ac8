import Foundation
import Testing

/// The runner's findings of attack r6b, each replayed against the built binary: `When I close the input` in a
/// terminal (14), many `{}` against a long step (10), a signal during BeforeAll (9), an artefact tree past the copy's
/// depth (8), a coverage threshold a Double would round (11), step-file parameters on Unicode text (12), and a
/// quarantined failure in the HTML page (3).
@Suite struct RunnerR6bEndToEndTests {
    /// A terminal's input stays open while its screen is read: closing it ended nothing and passed. A load error
    /// naming both lines and `When I press Ctrl-D`; without a terminal the step still closes stdin.
    @Test func closingTheInputInATerminalIsALoadErrorNamingCtrlD() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: input
              Scenario: terminal
                Given the program runs in a terminal
                Given the program "/bin/sh"
                When I launch the program with "-c 'echo ready; cat; echo cat-ended'"
                Then the screen shows "ready"
                When I type "hello"
                And I close the input
                Then the program exits with code 0
            """, "ci.feature", in: directory)
        for command in ["check", "test"] {
            let result = try CLI.run([command, feature])
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("ci.feature:8: the program runs in a terminal (line 3)"), "\(result.stderr)")
            #expect(result.stderr.contains("When I press Ctrl-D"), "\(result.stderr)")
        }
        let pipe = try CLI.write(
            """
            Feature: input
              Scenario: pipe
                Given the program "/bin/sh"
                When I launch the program with "-c 'cat; echo cat-ended'"
                When I type "hello"
                And I close the input
                Then the program exits with code 0
                And I see "cat-ended"
            """, "pipe.feature", in: directory)
        let piped = try CLI.run(["test", pipe])
        #expect(piped.status == 0, "\(piped.stdout)\(piped.stderr)")
    }

    /// 40 `{}` against a 16 KB step took 12 s of CPU in `check`: the match's work budget is spent and the load
    /// fails naming the step and the pattern (no "undefined step" beside it); an ordinary step still matches.
    @Test func manyParametersAgainstALongStepSpendTheMatchBudgetAndFailTheLoad() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pattern = Array(repeating: "{}", count: 40).joined(separator: " ") + " zz"
        _ = try CLI.write("[{\"step\": \"\(pattern)\", \"run\": [\"true\"]}]", "k.steps.json", in: directory)
        let words = Array(repeating: "a", count: 8_000).joined(separator: " ")
        let feature = try CLI.write("Feature: k\n  Scenario: long\n    When \(words) zz\n", "q.feature", in: directory)
        let started = ContinuousClock.now
        let result = try CLI.run(["check", feature])
        #expect(result.status == 3, "\(result.stderr.prefix(600))")
        #expect(result.stderr.contains("q.feature:3: matching this 16002-byte step against step \"{} {}"), "\(result.stderr.prefix(600))")
        #expect(result.stderr.contains("k.steps.json:1) takes more than the work budget"), "\(result.stderr.prefix(600))")
        #expect(!result.stderr.contains("undefined step"), "\(result.stderr.prefix(600))")
        // Generous (a shared machine): the fix answers in about a second; without it, this took a minute of wall time.
        #expect(ContinuousClock.now - started < .seconds(45))
        let short = try CLI.write(
            "Feature: k\n  Scenario: short\n    When " + String(repeating: "a ", count: 40) + "zz\n", "s.feature", in: directory)
        let fine = try CLI.run(["test", short])
        #expect(fine.status == 0, "\(fine.stdout)\(fine.stderr)")
    }

    /// SIGTERM while a BeforeAll hook runs: the JUnit held only skipped tests (green with skips) for a run that exited
    /// 143 having tested nothing. Every report now holds an error entry naming the BeforeAll hooks.
    @Test func aSignalDuringBeforeAllIsAnErrorEntryInEveryReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("up")
        _ = try CLI.write(
            """
            {"hooks": [{"hook": "BeforeAll", "run": ["sh", "-c", "echo up > \(marker.path); exec sleep 30"]}]}
            """, "h.steps.json", in: directory)
        _ = try CLI.write("Feature: b\n  Scenario: one\n    When I run \"true\"\n", "b.feature", in: directory)
        let result = try InterruptedReportsEndToEndTests.interrupt(["b.feature"], in: directory, markers: [marker], signal: SIGTERM)
        #expect(result.status == 143, "\(result.stdout)\(result.stderr)")
        let junit = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(junit.contains("errors=\"1\""), "\(junit)")
        #expect(junit.contains("interrupted by SIGTERM before any scenario started, while the BeforeAll hooks ran"), "\(junit)")
        let json = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(json.contains("\"errors\":1") || json.contains("\"errors\": 1"), "\(json.prefix(800))")
        #expect(json.contains("BeforeAll hooks"), "\(json.prefix(800))")
        let messages = directory.appendingPathComponent("m.ndjson").path
        let html = directory.appendingPathComponent("r.html").path
        let report = try CLI.run(["report", "--html", html, messages])
        #expect(report.status == 1, "\(report.stdout)\(report.stderr)")
        let page = try String(contentsOf: URL(fileURLWithPath: html), encoding: .utf8)
        #expect(page.contains("before any scenario started"), "the page names the interruption")
    }

    /// A failed scenario whose program left a tree deeper than the copy's 64 levels: noted beside the copy as the size
    /// cap is, the run's exit code its own (1), never 74 ("a report could not be written").
    @Test func anArtefactTreeDeeperThanTheCopyIsNotedNotExit74() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let deep = Array(repeating: "a", count: 70).joined(separator: "/")
        let feature = try CLI.write(
            """
            Feature: deep
              Scenario: deep fail
                When I run "mkdir -p \(deep)"
                Then the exit code is 3
            """, "deep.feature", in: directory)
        let artifacts = directory.appendingPathComponent("art").path
        let result = try CLI.run(["test", "--artifacts", artifacts, "--report", directory.appendingPathComponent("r.json").path, feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("deeper than 64 directories; not copied"), "\(result.stderr)")
        let notes = try FileManager.default.subpathsOfDirectory(atPath: artifacts).filter { $0.hasSuffix("directory-not-copied.txt") }
        try #require(notes.count == 1, "\(notes)")
        let note = try String(contentsOfFile: artifacts + "/" + notes[0], encoding: .utf8)
        #expect(note.contains("deeper than 64 directories, not copied"), "\(note)")
    }

    /// `80.000000000000000000001` read as 80 passed a run at exactly 80.0 %: digits a Double would round are refused
    /// with the one number rule's words; `80.5` is still taken.
    @Test func aCoverageThresholdADoubleWouldRoundIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: c\n  Scenario: c\n    When I run \"true\"\n", "c.feature", in: directory)
        let coverage = directory.appendingPathComponent("cov").path
        let refused = try CLI.run(["test", "--coverage", coverage, "--coverage-threshold", "80.000000000000000000001", feature])
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("--coverage-threshold"), "\(refused.stderr)")
        #expect(refused.stderr.contains("has more digits than a double keeps (it would read as 80.0)"), "\(refused.stderr)")
        let taken = try CLI.run(["test", "--list", "--coverage", coverage, "--coverage-threshold", "80.5", feature])
        #expect(taken.status != 2, "\(taken.stdout)\(taken.stderr)")
    }

    /// `{int}` takes `٣` and `５` as PyPI cucumber-expressions does (the command gets 3 and 5), and `{word}` stops at
    /// an NBSP as it does (`a<NBSP>b` is no word: undefined).
    @Test func stepFileParametersReadUnicodeTextAsTheReference() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            [{"step": "the count is {int}", "run": ["sh", "-c", "test \\"$0\\" = 3 || test \\"$0\\" = 5", "{1}"]},
             {"step": "the word is {word}", "run": ["true"]}]
            """, "n.steps.json", in: directory)
        let digits = try CLI.write(
            "Feature: n\n  Scenario: digits\n    Given the count is \u{663}\n    Given the count is \u{FF15}\n", "d.feature", in: directory)
        let passed = try CLI.run(["test", digits])
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        let word = try CLI.write("Feature: n\n  Scenario: word\n    Given the word is a\u{A0}b\n", "w.feature", in: directory)
        let undefined = try CLI.run(["check", word])
        #expect(undefined.status == 3, "\(undefined.stdout)\(undefined.stderr)")
        #expect(undefined.stderr.contains("undefined step"), "\(undefined.stderr)")
    }

    /// Two scenarios, the second (line 4) failing: with it quarantined the run passes.
    static let quarantinedFailure = """
        Feature: q
          Scenario: passes
            When I run "true"
          Scenario: quarantined fails
            When I run "false"
            Then the exit code is 0
        """

    /// A quarantined failure was a plain red failure on the page under "exit code 0": it has its own status, count and
    /// badge, from `test --html` and from `report` on the Messages alike.
    @Test func aQuarantinedFailureIsShownApartInTheHTMLReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.quarantinedFailure, "q3.feature", in: directory)
        let list = try CLI.write("q3.feature:4\n", "quar.txt", in: directory)
        let html = directory.appendingPathComponent("r3.html").path
        let messages = directory.appendingPathComponent("m.ndjson").path
        let result = try CLI.run(["test", "--quarantine", list, "--html", html, "--messages", messages, feature], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let again = directory.appendingPathComponent("again.html").path
        let report = try CLI.run(["report", "--html", again, messages])
        #expect(report.status == 0, "\(report.stdout)\(report.stderr)")
        for path in [html, again] {
            let page = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
            #expect(page.contains("\"n\":\"quarantined fails\",\"t\":[],\"s\":\"quarantined\""), "\(path)")
            #expect(page.contains("\"s\":\"quarantined\",\"q\":true"), "\(path)")
            guard HTMLReportEndToEndTests.browser != nil else { continue }
            let shot = directory.appendingPathComponent("shot.png").path
            let (dom, _) = try HTMLReportEndToEndTests.openInBrowser(path, directory: directory, screenshot: shot)
            #expect(
                dom.contains("2 scenarios, all passed, 1 quarantined (failed, not failing the run), exit code 0"), "\(dom.prefix(2000))")
            #expect(dom.contains(">quarantined: 1<") && dom.contains(">passed: 1<") && !dom.contains(">failed: 1<"), "the filter buttons")
        }
    }
}
