import Foundation
import Testing

/// docs/threat-model.md names, for each surface and class, the test that covers it: every name must be a test
/// that exists, or the table says something is covered that is not.
@Suite struct ThreatModelTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyTestTheThreatModelNamesExists() throws {
        let model = try String(contentsOf: Self.root.appendingPathComponent("docs/threat-model.md"), encoding: .utf8)
        var sources = ""
        let walker = FileManager.default.enumerator(at: Self.root.appendingPathComponent("Tests"), includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "swift", !url.hasDirectoryPath { sources += try String(contentsOf: url, encoding: .utf8) }
        }
        let named = model.matches(of: /`([A-Z][A-Za-z0-9]+Tests)\.([a-z][A-Za-z0-9]*|\*)`/)
        #expect(named.count > 50, "the table names \(named.count) tests")
        for match in named {
            let (suite, test) = (String(match.1), String(match.2))
            let suiteExists = sources.contains("struct \(suite)") || sources.contains("class \(suite)")
            #expect(suiteExists, "docs/threat-model.md names a suite \(suite) that does not exist")
            let testExists = test == "*" || sources.contains("func \(test)(")
            #expect(testExists, "docs/threat-model.md names \(suite).\(test), which does not exist")
        }
    }
}
