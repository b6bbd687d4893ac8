import ProcessEngine
import Scenarios
import Testing

@testable import SutLaunchCLI

/// `--shard auto` parsed and resolved in-process: the table's bases, precedence, and the words users read.
@Suite struct ShardEnvironmentTests {
    @Test func autoParsesIntoTheOptionsAndKOverNStillParsesAsBefore() throws {
        guard case .run(let auto) = try TestOptions.parse(["--shard", "auto/4", "f.feature"]) else {
            Issue.record("help")
            return
        }
        #expect(auto.autoShard?.total == 4 && auto.scenario.shard == nil)
        guard case .run(let plain) = try TestOptions.parse(["--shard", "2/8", "f.feature"]) else {
            Issue.record("help")
            return
        }
        #expect(plain.autoShard == nil && plain.scenario.shard?.index == 2)
        #expect(throws: CommandFailure.self) { try TestOptions.parse(["--shard", "auto/10001", "f.feature"]) }
    }

    @Test(arguments: [
        (["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "4"], 4, 4, "GitLab CI"),
        (["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "1"], 1, 1, "CircleCI"),
        (["CI_NODE_TOTAL": "1"], 1, 1, "GitLab CI"),
        (["BUILDKITE_PARALLEL_JOB": "9999", "BUILDKITE_PARALLEL_JOB_COUNT": "10000"], 10_000, 10_000, "Buildkite"),
        (["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "3", "CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "3"], 1, 3, "Bazel"),
    ])
    func theTableReadsEachCIFromItsBase(environment: [String: String], index: Int, count: Int, ci: String) throws {
        let found = try ShardEnvironment.resolve(total: nil, spelling: "--shard", environment: environment)
        #expect(found.index == index && found.count == count && found.ci == ci, "\(found)")
    }

    @Test func noCIFoundNamesEveryVariable() {
        do {
            _ = try ShardEnvironment.resolve(total: nil, spelling: "--shard", environment: [:])
            Issue.record("resolved with no CI")
        } catch {
            for source in ShardEnvironment.sources {
                #expect(error.message.contains(source.index) && source.total.map { error.message.contains($0) } != false)
            }
            #expect(error.message.contains("--shard ${{ matrix.shard }}/N"))
        }
    }
}
