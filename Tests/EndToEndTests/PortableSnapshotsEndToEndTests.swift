import Foundation
import Testing

/// Snapshots and exact-output checks that travel: a snapshot written in one directory passes when the same suite is
/// checked from another (its scenario directories, HOME, TMPDIR and mock server port all differ), and users'
/// redactions (`--redact`, step files) are bounded, ordered and refused when they would do harm.
@Suite struct PortableSnapshotsEndToEndTests {
    static let feature = """
        Feature: snap
          Scenario: paths
            Given the route "GET /x" answers 200
            When I run "sh -c 'pwd; echo home=$HOME tmp=$TMPDIR; echo url=$SUT_MOCK_SERVER_URL; echo id-$$; echo v${VERSION}'"
            Then the output matches the snapshot "paths"
            And the output is:
              \"\"\"
              [CWD]
              home=[HOME] tmp=[TMP]
              url=[MOCK]
              [..]
              v[VERSION]
              \"\"\"

        """

    @Test func aSnapshotWrittenInOneDirectoryPassesCheckedFromAnother() throws {
        let first = try CLI.temporaryDirectory()
        let second = try CLI.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let version =
            try CLI.run(["--version"]).stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        _ = try CLI.write(Self.feature, "features/snap.feature", in: first)
        _ = try CLI.write("{\"steps\": [], \"redactions\": {\"PID\": \"id-[0-9]+\"}}", "features/ids.steps.json", in: first)
        var environment = CLI.localEnvironment
        environment["CI"] = nil
        environment["VERSION"] = version
        let written = try CLI.run(["test", "--update-snapshots", "features/"], environment: environment, cwd: first)
        #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
        let snapshot = try String(
            contentsOf: first.appendingPathComponent("features/__snapshots__/snap.feature/paths.txt"), encoding: .utf8)
        #expect(snapshot == "[CWD]\nhome=[HOME] tmp=[TMP]\nurl=[MOCK]\n[PID]\nv[VERSION]\n", "\(snapshot)")
        // Another directory, another TMPDIR for the scenarios: other paths, another port, another pid.
        try FileManager.default.copyItem(at: first.appendingPathComponent("features"), to: second.appendingPathComponent("features"))
        let otherTemporary = second.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: otherTemporary, withIntermediateDirectories: true)
        environment["TMPDIR"] = otherTemporary.path
        environment["CI"] = "true"
        let checked = try CLI.run(["test", "features/"], environment: environment, cwd: second)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    }

    @Test func redactionsApplyInOrderAndLongestBuiltInValueFirst() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // $HOME/x is under the scenario's root, as is the working directory: each is replaced whole. A redaction
        // that matches a placeholder's text ([CWD]) sees it as text, after the built-in ones: the order is fixed.
        _ = try CLI.write(
            """
            Feature: order
              Scenario: s
                When I run "sh -c 'echo $HOME/x $PWD/y token=abc123 [HOME]'"
                Then the output is:
                  \"\"\"
                  [HOME]/x [CWD]/y token=[TOKEN] [HOME]
                  \"\"\"

            """, "o.feature", in: directory)
        let result = try CLI.run(["test", "--redact", "TOKEN=abc[0-9]+", "o.feature"], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func hostileRedactionsAreRefusedOrBounded() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: r\n  Scenario: s\n    When I run \"sh -c 'printf aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab'\"\n    Then the output is:\n      \"\"\"\n      [..]\n      \"\"\"\n",
            "r.feature", in: directory)
        for (value, problem) in [
            ("X=a*", "the pattern can match empty text"), ("X=\\b", "the pattern can match empty text"),
            ("X=a|\\b", "the pattern can match empty text"), ("X=\\B", "the pattern can match empty text"),
            ("CWD=a", "[CWD] is sut-launch's own placeholder"),
            ("lower=a", "must be 1 to 40 capital letters"), ("NOEQUALS", "is not NAME=REGEX"), ("X=(a", "is not supported"),
            ("X=", "has an empty pattern"), ("X\u{1B}]0;t\u{07}=a", "\\u{1B}"),
        ] {
            let result = try CLI.run(["test", "--redact", value, "r.feature"], cwd: directory)
            #expect(result.status == 2, "\(value): \(result.stderr)")
            #expect(result.stderr.contains(problem), "\(value): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"), "no raw escape reaches the terminal")
        }
        // Backtracking patterns run in linear time: the run ends at once.
        let started = Date()
        let slow = try CLI.run(["test", "--redact", "X=(a+)+$", "--redact", "Y=(a|aa)*c", "r.feature"], cwd: directory)
        #expect(slow.status == 0, "\(slow.stdout)\(slow.stderr)")
        #expect(Date().timeIntervalSince(started) < 60)
        _ = try CLI.write("{\"redactions\": {\"bad\": \"a\", \"OK\": 5}}", "r.steps.json", in: directory)
        let file = try CLI.run(["test", "r.feature"], cwd: directory)
        #expect(file.status == 3, "\(file.stderr)")
        #expect(file.stderr.contains("r.steps.json:1: redaction name 'bad'"), "\(file.stderr)")
        #expect(file.stderr.contains("r.steps.json:1: redaction OK needs a pattern string"), "\(file.stderr)")
        _ = try CLI.write("{\"redactions\": {\"WB\": \"\\\\b\"}}", "r.steps.json", in: directory)
        let check = try CLI.run(["check", "r.feature"], cwd: directory)
        #expect(check.status == 3 && check.stderr.contains("redaction WB: the pattern can match empty text"), "\(check.stderr)")
    }

    /// `[VERSION]` replaces sut-launch's version only as a whole token: inside another number (`10.1.0.1` for 0.1.0)
    /// it stays, or a snapshot would pass against `10.2.0.1` after an upgrade.
    @Test func theVersionIsReplacedOnlyAsAWholeToken() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let version = try #require(
            try CLI.run(["--version"]).stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).last.map(String.init))
        _ = try CLI.write(
            """
            Feature: v
              Scenario: s
                When I run "sh -c 'echo 1\(version).1 x\(version) \(version)a v\(version) =\(version).'"
                Then the output is:
                  \"\"\"
                  1\(version).1 x\(version) \(version)a v[VERSION] =[VERSION].
                  \"\"\"

            """, "v.feature", in: directory)
        let result = try CLI.run(["test", "v.feature"], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
