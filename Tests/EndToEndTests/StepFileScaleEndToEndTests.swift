import Foundation
import Testing

/// Step files of thousands of patterns, against the built binary: the placeholders come before the step files'
/// patterns are compiled and compared, so a run killed then leaves no earlier verdict.
@Suite struct StepFileScaleEndToEndTests {
    static func bash(_ script: String) throws -> (output: String, directory: URL) {
        try KilledRunOutputsEndToEndTests.bash(KilledRunOutputsEndToEndTests.killOncePlaceholder + "\n" + script)
    }

    /// The placeholders are written before the step files' patterns are compiled and compared. 6,000 patterns
    /// of one literal head (`{int} …`: every pair compared) take minutes to load; the run is killed once its
    /// placeholder is there, and every report says the run did not finish (before, the earlier green report stayed
    /// through the whole load).
    @Test func aRunKilledWhileItsStepFilesLoadLeavesPlaceholders() throws {
        let (output, _) = try Self.bash(
            #"""
            printf 'Feature: K\n  Scenario: k\n    When I run "true"\n' > k.feature
            "$1" test --junit j.xml --report r.json k.feature >/dev/null 2>&1; echo "first $?"
            python3 -c "
            import json
            json.dump([{'step': '{int} thing %d' % i, 'run': ['true']} for i in range(6000)], open('slow.json', 'w'))"
            "$1" test --steps slow.json --junit j.xml --report r.json k.feature >/dev/null 2>&1 & P=$!
            killonce r.json; echo "killed $?"
            grep -l 'did not finish' j.xml r.json | wc -l
            """#)
        #expect(output == "first 0\nkilled 137\n2\n", "\(output)")
    }
}
