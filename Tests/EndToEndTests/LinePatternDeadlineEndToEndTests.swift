import Foundation
import Testing

/// R9B-7: `Then I see a line matching` spent its pattern's step budget on each line with no deadline: six 30 KB lines
/// against `(a{1,50})+$` held a scenario with a 1s timeout for over a minute. The matching stops at the step's
/// deadline, naming the pattern and the timeout, as a redaction does.
@Suite struct LinePatternDeadlineEndToEndTests {
    @Test func aSlowLinePatternStopsAtTheScenariosDeadline() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: LP
              @timeout=1s
              Scenario: a costly line pattern
                When I run "sh -c 'for i in 1 2 3 4 5 6; do head -c 30000 /dev/zero | tr \\\\\\\\0 a; echo !; done'"
                Then I see a line matching "(a{1,50})+$"

            """, "l.feature", in: directory)
        let started = Date()
        let result = try CLI.run(["test", "l.feature"], cwd: directory)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("expected a line of stdout matching /(a{1,50})+$/: the pattern was still working on the output at "),
            "\(result.stdout)")
        #expect(took < 30, "took \(took)s")
    }
}
