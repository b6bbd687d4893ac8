import Foundation
import Testing

/// Every saved input (the seeds scripts/fuzz.sh starts from, and each crash it once found, named crash-*) through
/// its fuzz target: a regression traps and takes this test process down.
@Suite struct FuzzTargetsTests {
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Inputs")

    @Test(arguments: FuzzTargets.all.map(\.name))
    func savedInputsRunToTheEnd(target: String) throws {
        let run = try #require(FuzzTargets.all.first { $0.name == target }?.run)
        let directory = Self.inputs.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(!names.isEmpty, "no saved inputs in \(directory.path)")
        for name in names {
            run(Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }

    @Test func everyTargetHasSavedInputsAndEveryInputDirectoryATarget() throws {
        let directories = try FileManager.default.contentsOfDirectory(atPath: Self.inputs.path).sorted()
        #expect(directories == FuzzTargets.all.map(\.name).sorted())
    }
}
