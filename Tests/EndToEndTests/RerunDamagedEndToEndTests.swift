import Foundation
import Testing

/// `--rerun-failed` on an earlier run's reports that were cut short or damaged: each is refused (exit 2, naming the
/// file and the line), never read as "no failures" (a false green); and a quarantined scenario that could not run is
/// selected alike from the rerun file, the JUnit and the Messages.
@Suite struct RerunDamagedEndToEndTests {
    static func firstRun() throws -> (URL, jUnit: String, messages: [String]) {
        let directory = try CLI.temporaryDirectory()
        _ = try CLI.write(RerunEndToEndTests.feature, "features/mixed.feature", in: directory)
        let first = try CLI.run(["test", "--junit", "j.xml", "--messages", "m.ndjson", "features/"], cwd: directory)
        #expect(first.status == 1, "\(first.stderr)")
        let jUnit = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        let messages = try String(contentsOf: directory.appendingPathComponent("m.ndjson"), encoding: .utf8)
        return (directory, jUnit, messages.split(separator: "\n").map(String.init))
    }

    static func refused(_ text: String, _ problem: String, in directory: URL) throws {
        try text.write(to: directory.appendingPathComponent("bad"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["test", "--rerun-failed", "bad", "--allow-empty", "features/"], cwd: directory)
        #expect(result.status == 2, "\(problem): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--rerun-failed bad:" + problem), "\(problem): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test func damagedMessagesAreRefusedNamingTheirLine() throws {
        let (directory, _, lines) = try Self.firstRun()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lastStarted = try #require(lines.lastIndex { $0.hasPrefix("{\"testCaseStarted\"") })
        try Self.refused(
            lines[..<lastStarted].joined(separator: "\n") + "\n", "\(lastStarted): no testRunFinished", in: directory)
        let pickle = try #require(lines.firstIndex { $0.hasPrefix("{\"pickle\"") })
        for bad in ["9223372036854775808", "-9223372036854775809", "6.0", "0"] {
            var damaged = lines
            damaged[pickle] = damaged[pickle].replacingOccurrences(
                of: #""location":\{"line":\d+"#, with: "\"location\":{\"line\":\(bad)", options: .regularExpression)
            #expect(damaged[pickle] != lines[pickle])
            try Self.refused(damaged.joined(separator: "\n") + "\n", "\(pickle + 1): a pickle without an id", in: directory)
        }
        let testCase = try #require(lines.firstIndex { $0.hasPrefix("{\"testCase\"") })
        var orphan = lines
        orphan[testCase] = orphan[testCase].replacingOccurrences(
            of: #""pickleId":"[^"]*""#, with: "\"pickleId\":\"missing\"", options: .regularExpression)
        try Self.refused(orphan.joined(separator: "\n") + "\n", "\(testCase + 1): a testCase without an id or a pickleId", in: directory)
    }

    @Test func malformedJUnitIsRefusedNamingItsLine() throws {
        let (directory, jUnit, _) = try Self.firstRun()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failure = try #require(jUnit.range(of: "<failure"))
        let cut = String(jUnit[..<jUnit.index(failure.upperBound, offsetBy: 10)])
        try Self.refused(cut, "", in: directory)
        try Self.refused(jUnit.replacingOccurrences(of: "</testcase>", with: ""), "", in: directory)
        let lines = jUnit.split(separator: "\n", omittingEmptySubsequences: false).count
        try Self.refused(jUnit + "<testsuites></testsuites>\n", "\(lines): a second root element <testsuites>", in: directory)
        try Self.refused(String(jUnit.dropLast(15)), "", in: directory)
        try Self.refused("<testsuites>\n<!-- open\n", "2: a <!-- that never ends", in: directory)
        try Self.refused("<testsuites>\n</testsuite>\n</testsuites>\n", "2: </testsuite> does not close <testsuites>", in: directory)
        try Self.refused("<testsuites/>\ntrailing\n", "2: text outside the root element", in: directory)
    }

    @Test func aQuarantinedScenarioThatCannotRunIsRerunFromEveryFormat() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: q
              @quarantine
              Scenario: undefined
                When nothing defines this step
              Scenario: passes
                When I run "true"

            """, "features/q.feature", in: directory)
        let first = try CLI.run(
            ["test", "--junit", "j.xml", "--messages", "m.ndjson", "--write-rerun", "r.txt", "features/"], cwd: directory)
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        for file in ["r.txt", "j.xml", "m.ndjson"] {
            let again = try CLI.run(["test", "--rerun-failed", file, "features/"], cwd: directory)
            #expect(again.status == 1, "\(file): \(again.stdout)\(again.stderr)")
            #expect(again.stdout.contains("(1 not selected)"), "\(file): \(again.stdout)")
        }
    }
}
