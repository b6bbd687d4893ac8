import Foundation
import Testing

/// Feature files as editors on other systems write them (CRLF, a byte order mark, tabs and Unicode spaces), and
/// files that parse to nothing: `check` and `test` read the first as Cucumber does and never call the second "ok".
@Suite struct FeatureTextEndToEndTests {
    static let login = CLI.packageRoot.appendingPathComponent("Fixtures/features/login.feature")

    /// login.feature rewritten by `transform` into a fresh directory, with the stubs it names (relative to it).
    private func variant(_ name: String, _ transform: (String) -> String) throws -> URL {
        let directory = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(
            at: Self.login.deletingLastPathComponent().appendingPathComponent("stubs"),
            to: directory.appendingPathComponent("stubs"))
        let url = directory.appendingPathComponent("\(name).feature")
        try Data(transform(try String(contentsOf: Self.login, encoding: .utf8)).utf8).write(to: url)
        return url
    }

    @Test(arguments: ["crlf", "bom-crlf", "tabs-and-nbsp"])
    func aFeatureWrittenElsewhereHasTheSameScenariosAndPasses(kind: String) throws {
        let url = try variant(kind) { text in
            switch kind {
            case "crlf": text.replacingOccurrences(of: "\n", with: "\r\n")
            // Indentation of tabs, non-breaking and ideographic spaces: blanks to Cucumber, so to us.
            case "tabs-and-nbsp": text.replacingOccurrences(of: "\n  ", with: "\n\t\u{00A0}\u{3000}")
            default: "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")
            }
        }
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let reference = try CLI.run(["check", Self.login.path])
        let check = try CLI.run(["check", url.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == reference.stdout.replacingOccurrences(of: Self.login.path, with: url.path))
        #expect(check.stdout.hasSuffix(": 6 scenarios\n"))
        let run = try CLI.run(["test", "-D", "PROGRAM=\(CLI.myApp)", url.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("6 scenarios: 6 passed"), "\(run.stdout)")
    }

    @Test(arguments: [
        ("Feature: f\r  Scenario: s\r    Given the program \"sh\"\r", "its lines end in CR alone"),
        ("Feature: only a feature\n  with a description\n", "the Feature has no Scenario"),
        ("# nothing but a comment\n", "the file has no Feature line"),
        ("Feature: f\n  Scenaro: a typo\n    Given the program \"sh\"\n", "the Feature has no Scenario"),
        ("Feature: f\n  Scenario Outline: s\n    Given the program \"<p>\"\n    Examples:\n", "Examples have no rows"),
    ])
    func aFeatureFileWithoutScenariosFailsCheck(text: String, reason: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("empty.feature")
        try Data(text.utf8).write(to: url)
        let check = try CLI.run(["check", url.path])
        #expect(check.status == 3)
        #expect(check.stdout.isEmpty, "\(check.stdout)")
        #expect(check.stderr.contains("\(url.path): no scenarios: "), "\(check.stderr)")
        #expect(check.stderr.contains(reason), "\(check.stderr)")
        // And `test` refuses it alike: exit 3 with the same reason, never a pass (nor an empty selection).
        let test = try CLI.run(["test", url.path])
        #expect(test.status == 3 && test.stderr.contains(reason), "\(test.stderr)")
    }
}
