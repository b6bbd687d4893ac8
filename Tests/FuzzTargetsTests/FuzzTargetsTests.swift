import Foundation
import Testing

/// Every saved input (the seeds scripts/fuzz.sh starts from, and each crash or hang it once found, named crash-* or
/// timeout-*) through its fuzz target: a regression traps and takes this test process down, and an input that runs
/// longer than `timeLimit` fails: a hang, on a machine that may be busy (a debug build; scripts/fuzz.sh holds each input
/// to its speed, 5 s per input under the fuzzer, and each target's own limits with `-D FUZZING`).
@Suite struct FuzzTargetsTests {
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Inputs")
    static let timeLimit = 30.0

    @Test(arguments: FuzzTargets.all.map(\.name))
    func savedInputsRunToTheEnd(target: String) throws {
        let run = try #require(FuzzTargets.all.first { $0.name == target }?.run)
        let directory = Self.inputs.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(!names.isEmpty, "no saved inputs in \(directory.path)")
        for name in names {
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            let started = ContinuousClock.now
            run(bytes)
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            #expect(seconds < Self.timeLimit, "\(target)/\(name) ran \(seconds) s: a hang (limit \(Self.timeLimit) s)")
        }
    }

    @Test func everyTargetHasSavedInputsAndEveryInputDirectoryATarget() throws {
        let directories = try FileManager.default.contentsOfDirectory(atPath: Self.inputs.path).sorted()
        #expect(directories == FuzzTargets.all.map(\.name).sorted())
    }
}
