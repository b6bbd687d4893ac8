import Foundation
import Testing

/// Fifth attack on `sut-launch test` (r5b): scenarios that vanished or passed unseen, replayed against the built
/// binary. Snapshot updates on a CI without `CI` set, placeholders no column fills, header-only Examples,
/// `--artifacts` inside a fixture directory, a `--quarantine` name several scenarios share, zero shard timings and
/// a step-file pattern a built-in step shadows.
@Suite struct GherkinVanishEndToEndTests {
    private static let snapshotFeature =
        "Feature: A\n  Scenario: s\n    When I run \"echo hello\"\n    Then the output matches the snapshot \"o\"\n"

    /// r5b-14: Jenkins (no `CI`), Bazel and the other CIs sut-launch knows refuse `SUT_UPDATE_SNAPSHOTS=1` and
    /// `--update-snapshots`: the differing snapshot fails and stays as it was.
    @Test(arguments: [
        ["JENKINS_URL": "http://j/", "BUILD_TAG": "jenkins-x-1"], ["BUILD_TAG": "jenkins-x-1"], ["TEST_SRCDIR": "/r"],
        ["TEST_TMPDIR": "/t"], ["GITHUB_ACTIONS": "true"], ["GITLAB_CI": "true"], ["BUILDKITE": "true"], ["CIRCLECI": "true"],
        // r5c-4: a Kubernetes Indexed Job's first pod (index 0), and CIs the first list missed.
        ["JOB_COMPLETION_INDEX": "0"], ["GO_PIPELINE_NAME": "p"], ["bamboo_buildKey": "K-1"], ["HUDSON_URL": "http://h/"],
        ["SEMAPHORE": "true"], ["WOODPECKER": "true"], ["CONTINUOUS_INTEGRATION": "true"], ["HARNESS_BUILD_ID": "1"],
        ["CF_BUILD_ID": "1"],
    ])
    func snapshotUpdatesAreRefusedOnEveryKnownCI(_ variables: [String: String]) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.snapshotFeature, "a.feature", in: directory)
        let snapshot = try CLI.write("something else\n", "__snapshots__/a.feature/o.txt", in: directory)
        var environment = CLI.localEnvironment.merging(variables) { $1 }
        environment["SUT_UPDATE_SNAPSHOTS"] = "1"
        let result = try CLI.run(["test", "--update-snapshots", feature], environment: environment, cwd: directory)
        #expect(result.status == 1, "\(variables): \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("snapshots are never written on a CI"), "\(result.stdout)")
        #expect(try String(contentsOfFile: snapshot, encoding: .utf8) == "something else\n")
    }

    /// r5b-14: Bazel's `--shard auto` (TEST_TARGET, no `CI`) with `--update-snapshots`.
    @Test func snapshotUpdatesAreRefusedUnderBazelShardAuto() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.snapshotFeature, "a.feature", in: directory)
        let snapshot = try CLI.write("something else\n", "__snapshots__/a.feature/o.txt", in: directory)
        let environment = CLI.localEnvironment.merging(["TEST_TARGET": "//x:y", "TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "1"]) { $1 }
        let result = try CLI.run(["test", "--update-snapshots", "--shard", "auto", feature], environment: environment, cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("TEST_TARGET is set"), "\(result.stdout)")
        #expect(try String(contentsOfFile: snapshot, encoding: .utf8) == "something else\n")
    }

    /// r5b-14: a run that writes a snapshot says which, on stderr and in the JUnit and JSON reports.
    @Test func aWrittenSnapshotIsSaidOnTheConsoleAndInTheReports() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.snapshotFeature, "a.feature", in: directory)
        let result = try CLI.run(["test", "--update-snapshots", "--junit", "j.xml", "--report", "r.json", feature], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("a.feature:2: snapshot written: "), "\(result.stderr)")
        #expect(result.stderr.contains("__snapshots__/a.feature/o.txt"), "\(result.stderr)")
        for report in ["j.xml", "r.json"] {
            let text = try String(contentsOf: directory.appendingPathComponent(report), encoding: .utf8)
            #expect(text.contains("snapshot written: ") && text.contains("__snapshots__/a.feature/o.txt"), "\(report): \(text)")
        }
        // Matching now: nothing written, nothing said.
        let again = try CLI.run(["test", "--update-snapshots", feature], cwd: directory)
        #expect(again.status == 0 && !again.stderr.contains("snapshot written"), "\(again.stderr)")
    }

    /// r5b-3: `<eror>` in a step, where the column is `error`, is a load error naming the line and the placeholder
    /// (check and test alike); the column no step uses is a warning.
    @Test func aPlaceholderNamingNoColumnIsALoadError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: O
              Scenario Outline: absence with a misspelled placeholder
                When I run "echo <cmd> failed"
                Then I do not see "<eror> failed"
                Examples:
                  | cmd | error |
                  | x   | x     |

            """, "o.feature", in: directory)
        for command in ["test", "check"] {
            let result = try CLI.run([command, feature], cwd: directory)
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("o.feature:4: <eror> names no column of the Examples at line 5"), "\(result.stderr)")
            #expect(result.stderr.contains("warning: ") && result.stderr.contains("column \"error\""), "\(result.stderr)")
        }
        // Angle brackets meant as text go in a column's value; `sort < in > out` is no placeholder.
        let literal = try CLI.write(
            """
            Feature: L
              Scenario Outline: html <n>
                When I run "echo <tag> < in > out"
                Then I see "<tag>"
                Examples:
                  | n | tag |
                  | 1 | <b> |

            """, "l.feature", in: directory)
        let result = try CLI.run(["test", literal], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// r5b-12: an Examples table with a header and no rows (rows commented out) is warned about, and the outline
    /// left with no row at all too; the run still passes what it holds (as Cucumber: documented).
    @Test func headerOnlyExamplesAreWarnedAbout() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: X
              Scenario: ok
                When I run "true"
              Scenario Outline: important <v>
                When I run "false"
                Then the exit code is 0
                Examples:
                  | v |
            #     | 1 |

            """, "ex.feature", in: directory)
        for command in ["test", "check"] {
            let result = try CLI.run([command, feature], cwd: directory)
            #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("ex.feature:7: Examples \"\" has a header and no rows"), "\(result.stderr)")
            #expect(result.stderr.contains("ex.feature:4: Scenario Outline \"important <v>\" has no Examples row"), "\(result.stderr)")
        }
    }

    /// r5b-13: `--artifacts` inside a fixture directory (`Given the files from "../fx"`) is exit 2 before the run,
    /// naming both; nothing is written there.
    @Test func artifactsInsideAFixtureDirectoryAreRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("in\n", "fx/input.txt", in: directory)
        _ = try CLI.write(
            "Feature: A\n  Scenario: s\n    Given the files from \"../fx\"\n    When I run \"ls -R\"\n    Then the exit code is 1\n",
            "f/a.feature", in: directory)
        let result = try CLI.run(["test", "--artifacts", "fx/arts", "f"], cwd: directory)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--artifacts fx/arts is inside f/../fx (named at f/a.feature:3)"), "\(result.stderr)")
        let arts = directory.appendingPathComponent("fx/arts").path
        #expect((try? FileManager.default.contentsOfDirectory(atPath: arts))?.isEmpty ?? true, "nothing written in fx/arts")
        // A directory of its own beside them is fine.
        let beside = try CLI.run(["test", "--artifacts", "arts", "f"], cwd: directory)
        #expect(beside.status == 1, "\(beside.stdout)\(beside.stderr)")
    }

    /// r5b-18: a `--quarantine` name two features' scenarios share is exit 2 naming both; `file:line` picks one.
    @Test func aQuarantineNameSeveralScenariosShareIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: Flaky area\n  Scenario: login works\n    When I run \"false\"\n    Then the exit code is 0\n", "a.feature",
            in: directory)
        _ = try CLI.write(
            "Feature: Payments\n  Scenario: login works\n    When I run \"false\"\n    Then the exit code is 0\n", "b.feature",
            in: directory)
        _ = try CLI.write("login works\n", "q.txt", in: directory)
        let result = try CLI.run(["test", "--quarantine", "q.txt", "."], cwd: directory)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("2 scenarios are named \"login works\" (./a.feature:2, ./b.feature:2)"), "\(result.stderr)")
        _ = try CLI.write("a.feature:2\n", "q.txt", in: directory)
        let one = try CLI.run(["test", "--quarantine", "q.txt", "."], cwd: directory)
        #expect(one.status == 1, "b.feature's failure still fails the run: \(one.stdout)\(one.stderr)")
    }

    /// r5b-4: a timings file of zeros still spreads the scenarios: two per shard of three, each once.
    @Test func zeroShardTimingsStillBalance() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenarios = (1...6).map { "  Scenario: s\($0)\n    When I run \"true\"\n" }.joined()
        let feature = try CLI.write("Feature: T\n" + scenarios, "t.feature", in: directory)
        let timings = try CLI.write(
            "<testsuites><testsuite name=\"T\"><testcase classname=\"T\" name=\"s1\" file=\"t.feature\" line=\"2\" time=\"0\"/>"
                + "<testcase classname=\"T\" name=\"s2\" file=\"t.feature\" line=\"4\" time=\"-0\"/></testsuite></testsuites>\n",
            "tim0.xml", in: directory)
        var seen: [String] = []
        for shard in 1...3 {
            let result = try CLI.run(["test", "--shard", "\(shard)/3", "--shard-timings", timings, "--list", feature], cwd: directory)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").filter { $0.contains("t.feature:") }
            #expect(lines.count == 2, "shard \(shard)/3: \(result.stdout)")
            seen += lines.map(String.init)
        }
        #expect(Set(seen).count == 6)
    }

    /// r5b-7: a step-file pattern that matches the feature's text a built-in step also matches is refused at load
    /// (test and check), naming both.
    @Test func aStepFilePatternABuiltInShadowsIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            "Feature: S\n  Scenario: s\n    When I run \"echo hello\"\n    Then I see \"goodbye\"\n", "a.feature", in: directory)
        _ = try CLI.write(#"[{"step": "I (do )see \"goodbye\"", "run": ["true"]}]"#, "x.steps.json", in: directory)
        for command in ["test", "check"] {
            let result = try CLI.run([command, feature], cwd: directory)
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(
                result.stderr.contains("a.feature:4: step \"I see \"goodbye\"\" matches both the built-in step")
                    && result.stderr.contains("and step \"I (do )see \"goodbye\"\""), "\(result.stderr)")
        }
    }
}
