import Foundation
import Testing

/// `--rerun-failed` on the records of a run that failed only in an AfterAll hook (R10B-5): its rerun file listed every
/// scenario that ran, but its Messages selected nothing (exit 5) and its JUnit was refused (exit 2: the hook's entry,
/// `file="./h.steps.json"`, was taken for a feature file). The three records now select the same scenarios, for one
/// run and for `report`'s merge of its shards.
@Suite struct RerunRunHooksEndToEndTests {
    /// Two features and an AfterAll hook that fails when `SHARD` is 2.
    private static func suite() throws -> URL {
        let directory = try CLI.temporaryDirectory()
        for index in 1...2 {
            _ = try CLI.write("Feature: F\(index)\n  Scenario: s\(index)\n    When I run \"true\"\n", "f\(index).feature", in: directory)
        }
        _ = try CLI.write(
            "{ \"steps\": [], \"hooks\": [ { \"hook\": \"AfterAll\", \"run\": [\"sh\", \"-c\", \"test \\\"$SHARD\\\" != 2\"] } ] }\n",
            "h.steps.json", in: directory)
        return directory
    }

    private static func environment(shard: String) -> [String: String] {
        CLI.localEnvironment.merging(["SHARD": shard]) { $1 }
    }

    @Test func theJUnitAndMessagesOfARunThatFailedOnlyInAnAfterAllHookRerunEveryScenario() throws {
        let directory = try Self.suite()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failing = Self.environment(shard: "2")
        let first = try CLI.run(
            ["test", "--messages", "a.ndjson", "--junit", "a.xml", "--write-rerun", "a.txt", "."], environment: failing, cwd: directory)
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        for record in ["a.txt", "a.xml", "a.ndjson"] {
            let again = try CLI.run(["test", "--list", "--rerun-failed", record, "."], environment: failing, cwd: directory)
            #expect(again.status == 0, "\(record): \(again.status) \(again.stdout)\(again.stderr)")
            #expect(again.stdout.contains("s1") && again.stdout.contains("s2"), "\(record): \(again.stdout)")
        }
    }

    @Test func theMergedJUnitAndMessagesOfShardsRerunEveryScenarioWhenOnlyAHookFailed() throws {
        let directory = try Self.suite()
        defer { try? FileManager.default.removeItem(at: directory) }
        for shard in ["1", "2"] {
            _ = try CLI.run(
                ["test", "--shard", "\(shard)/2", "--run-id", "R", "--messages", "s\(shard).ndjson", "."],
                environment: Self.environment(shard: shard), cwd: directory)
        }
        let merged = try CLI.run(["report", "--junit", "j.xml", "--messages", "m.ndjson", "s1.ndjson", "s2.ndjson"], cwd: directory)
        #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
        for record in ["j.xml", "m.ndjson"] {
            let again = try CLI.run(["test", "--list", "--rerun-failed", record, "."], cwd: directory)
            #expect(again.status == 0, "\(record): \(again.status) \(again.stdout)\(again.stderr)")
            #expect(again.stdout.contains("s1") && again.stdout.contains("s2"), "\(record): \(again.stdout)")
        }
    }

    /// The run's own JUnit entries are no feature file: an interruption's `AfterAll hooks` (`file="" line="0"`) was
    /// exit 2 "not a line number"; it selects what the run's rerun file does (nothing here: every scenario passed).
    @Test func anInterruptionsAfterAllEntryInJUnitIsNoScenario() throws {
        let directory = try Self.suite()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="sut-launch" tests="2" failures="0" errors="1">
              <testsuite name="F1" tests="1" failures="0" errors="0" skipped="0">
                <testcase classname="F1" name="s1" file="./f1.feature" line="2" time="0.1"></testcase>
              </testsuite>
              <testsuite name="sut-launch" tests="1" failures="0" errors="1" skipped="0">
                <testcase classname="sut-launch" name="AfterAll hooks" file="" line="0" time="0">
                  <error message="interrupted by SIGTERM while the AfterAll hooks ran (./h.steps.json:1): every scenario had ended; the hooks ran to their end" type="ScenarioError">x</error>
                </testcase>
              </testsuite>
            </testsuites>

            """
        _ = try CLI.write(junit, "i.xml", in: directory)
        let again = try CLI.run(["test", "--list", "--rerun-failed", "i.xml", "."], cwd: directory)
        #expect(again.status == 5, "\(again.status) \(again.stdout)\(again.stderr)")
        #expect(!again.stderr.contains("not a line number"), "\(again.stderr)")
    }
}
