import Testing

@testable import Scenarios

/// The one rule for a step's input path led by `${NAME}` (`StepVariables.leadingOutsideValue`), which the run
/// (`ScenarioRun.featurePath`) and `test`'s output check (`TestReadFiles.found`) both call: held twice, the copies
/// drifted apart and a report could be planted in a fixture the run read from another directory.
@Suite struct StepVariablesTests {
    @Test func aPathLedByAValueFromOutsideTheFeatureIsThatValue() {
        let defined: Set = ["D", "BOTH"]
        let set: Set = ["S", "BOTH"]
        func outside(_ path: String) -> String? {
            StepVariables.leadingOutsideValue(path, defined: defined.contains, setByScenario: set.contains)
        }
        // A --define wins over a value the scenario set; a name nobody defined is the caller's environment's.
        #expect(outside("${D}/fixture") == "D")
        #expect(outside("${BOTH}/fixture") == "BOTH")
        #expect(outside("${ENV}/fixture") == "ENV")
        // A value the scenario set is the feature's; a name that does not lead the path leads nothing.
        #expect(outside("${S}/fixture") == nil)
        #expect(outside("fixture/${D}") == nil)
        #expect(outside("x${D}") == nil)
        #expect(outside("$D/fixture") == nil)
        #expect(outside("${S}${D}") == nil)
        #expect(outside("${D}${S}") == "D")
    }
}
