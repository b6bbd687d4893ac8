import Foundation
import Testing

/// Whole mapping sets that others wrote for WireMock (WireMock/RealSets, each with its source and license in its
/// README) load whole in `sut-launch serve` and answer as the WireMock 2.35 jar does: WireMock/realsets_script.py
/// derives from each mapping a request that satisfies it and near misses (another method, another path, a header,
/// query parameter or body left out), sends each to both, and compares status, body and Content-Type.
@Suite struct WireMockRealSetsTests {
    static let script = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/WireMock/realsets_script.py").path
    static let sets = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/WireMock/RealSets")

    @Test(
        .enabled(
            if: WireMockDifferentialTests.jar != nil,
            "needs java and the Python WireMock client: pip install wiremock (scripts/install-test-deps.sh installs it)"))
    func realMappingSetsAnswerAsWireMockDoes() throws {
        let expectedSets = try FileManager.default.contentsOfDirectory(atPath: Self.sets.path)
            .filter { (try? Self.sets.appendingPathComponent($0).resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        let lines = try CLI.output(
            of: ["python3", Self.script, WireMockDifferentialTests.jar!, CLI.sutLaunch, Self.sets.path],
            in: FileManager.default.temporaryDirectory
        ).split(separator: "\n").map(String.init)
        let failures = lines.enumerated().filter { $0.element.hasPrefix("DIFF") || $0.element.hasPrefix("FAIL") }
        for (index, line) in failures {
            let detail = lines[index + 1..<min(index + 3, lines.count)].joined(separator: "\n")
            Issue.record("\(line)\n\(detail)")
        }
        let summary = try #require(
            lines.last { $0.hasPrefix("realsets:") }, "the script stopped early:\n\(lines.suffix(20).joined(separator: "\n"))")
        let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(numbers.count >= 6, "\(summary)")
        guard numbers.count >= 6 else { return }
        let (sets, mappings, skipped, requests, agreeing, answered) = (
            numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5]
        )
        #expect(sets == expectedSets.count && sets >= 15, "\(summary)")
        #expect(requests == agreeing && requests >= 3 * mappings, "\(summary)")
        #expect(answered == mappings - skipped, "a mapping whose derived request WireMock did not answer: \(summary)")
    }
}
