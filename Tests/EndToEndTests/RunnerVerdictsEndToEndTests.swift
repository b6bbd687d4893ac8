import Foundation
import Testing

/// The second outside attack on `sut-launch test` (findings F12, F4, F9): a verdict that said passed, or a merge
/// that was green, for something that failed or never happened.
@Suite struct RunnerVerdictsEndToEndTests {
    /// F12: an After hook saw `SCENARIO_STATUS=passed` for a scenario the mock server's end-of-scenario checks
    /// failed (an unexpected request); the console said ✗.
    @Test func afterHooksSeeTheStatusTheMockServerChecksGave() throws {
        guard CLI.hasCommand("curl") else { return }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let statuses = directory.appendingPathComponent("statuses")
        _ = try CLI.write(
            """
            {"steps": [], "hooks": [
              {"hook": "After", "run": ["sh", "-c", "echo \\"$SCENARIO_NAME: $SCENARIO_STATUS\\" >> \(statuses.path)"]}
            ]}
            """, "h.steps.json", in: directory)
        _ = try CLI.write(
            """
            Feature: U
              Scenario: unexpected request
                Given the route "GET /x" answers 204
                When I run "curl -s -o /dev/null ${SUT_MOCK_SERVER_URL}/nope"
                Then the exit code is 0
              Scenario: expected request
                Given the route "GET /x" answers 204
                When I run "curl -s -o /dev/null ${SUT_MOCK_SERVER_URL}/x"
                Then the exit code is 0

            """, "u.feature", in: directory)
        let result = try CLI.run(["test", "u.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = try String(contentsOf: statuses, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == ["unexpected request: failed", "expected request: passed"], "\(lines)")
    }

    /// F4: a scenario with no route has no mock server, and `Then the server received no unexpected requests`
    /// passed on a server that never existed. It is an error naming what is missing.
    @Test func aRequestAssertionWithoutAServerIsAnErrorNotAPass() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: Unexpected
              Scenario: no route, explicit check
                When I run "sh -c 'echo URL=$SUT_MOCK_SERVER_URL'"
                Then the server received no unexpected requests

            """, "un.feature", in: directory)
        let result = try CLI.run(["test", "un.feature"], cwd: directory)
        #expect(result.status != 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("no mock server runs"), "\(result.stdout)")
    }

    /// F9: `report` given shard 1/2's Messages alone exited 0 with a green report, though the file's own run record
    /// says `--shard 1/2`. A shard missing or given twice fails the merge by name (reports still written) unless
    /// `--allow-missing-shards` says a partial merge is intended.
    @Test func aMergeMissingAShardFailsNamingIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: S
              Scenario: a
                When I run "true"
              Scenario: b
                When I run "true"
              Scenario: c
                When I run "true"
              Scenario: d
                When I run "true"

            """, "s.feature", in: directory)
        for shard in ["1", "2"] {
            let run = try CLI.run(
                ["test", "--run-id", "r1", "--shard", "\(shard)/2", "--messages", "m\(shard).ndjson", "s.feature"], cwd: directory)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        }
        let whole = try CLI.run(["report", "--junit", "all.xml", "m1.ndjson", "m2.ndjson"], cwd: directory)
        #expect(whole.status == 0, "\(whole.stderr)")
        let partial = try CLI.run(["report", "--junit", "one.xml", "m1.ndjson"], cwd: directory)
        #expect(partial.status == 1)
        #expect(partial.stderr.contains("report: run r1: shard 2/2 missing"), "\(partial.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("one.xml").path), "reports are still written")
        let intended = try CLI.run(["report", "--allow-missing-shards", "--junit", "one.xml", "m1.ndjson"], cwd: directory)
        #expect(intended.status == 0, "\(intended.stderr)")
        #expect(intended.stderr.contains("shard 2/2 missing; merged anyway (--allow-missing-shards)"), "\(intended.stderr)")
        let twice = try CLI.run(["report", "--merge-any", "--junit", "t.xml", "m1.ndjson", "m1.ndjson", "m2.ndjson"], cwd: directory)
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("shard 1/2 given 2 times (m1.ndjson, m1.ndjson)"), "\(twice.stderr)")
    }
}
