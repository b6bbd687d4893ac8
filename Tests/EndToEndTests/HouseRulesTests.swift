import Foundation
import Testing

/// The house rules (DESIGN.md "The house", issue #25) hold: scripts/house-check.sh measures module shares, body
/// and file lengths, the README, inline assembly and platform imports, and exits 1 when a rule fails.
@Suite struct HouseRulesTests {
    @Test(
        .enabled(if: CLI.hasCommand("python3"), "needs python3 (scripts/house-check.sh is bash + python3)")
    )
    func everyHouseRuleHolds() throws {
        let (status, output) = try Self.houseCheck()
        #expect(status == 0, "scripts/house-check.sh failed:\n\(output)")
    }

    /// The scanner behind the body-length rule ignores braces in strings, raw strings, multi-line literals, regex
    /// literals and comments, and reports nested functions on their own.
    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3 (scripts/house-check.sh is bash + python3)"))
    func houseCheckScannerPassesItsSelfTest() throws {
        let (status, output) = try Self.houseCheck("--self-test")
        #expect(status == 0, "scripts/house-check.sh --self-test failed:\n\(output)")
        #expect(output.contains("0 failed"), "\(output)")
    }

    /// Runs scripts/house-check.sh with bash; its exit status and its stdout and stderr together.
    static func houseCheck(_ arguments: String...) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.environment = CLI.localEnvironment
        process.arguments = ["bash", CLI.packageRoot.appendingPathComponent("scripts/house-check.sh").path] + arguments
        process.currentDirectoryURL = CLI.packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
