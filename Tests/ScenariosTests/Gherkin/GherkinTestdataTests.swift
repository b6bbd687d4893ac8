import Foundation
import MockServer
import ProcessEngine
import Testing

@testable import Scenarios

/// Cucumber's own conformance corpus (testdata/ of github.com/cucumber/gherkin, MIT, LICENSE beside it): every good
/// file compiles to the pickles its `.pickles.ndjson` lists (names, locations, tags, step texts and types, doc
/// strings with their media types, tables), and every bad file is refused at the line its `.errors.ndjson` names.
@Suite struct GherkinTestdataTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("testdata")

    static func features(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".feature") }.sorted()
    }

    /// Reads a file as bytes, decoded as UTF-8 the way `check` and `test` read feature files.
    static func text(_ folder: String, _ name: String) throws -> String {
        String(decoding: try Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(name)), as: UTF8.self)
    }

    static func ndjson(_ folder: String, _ name: String) throws -> [[String: Any]] {
        try text(folder, name).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func theCorpusIsWhole() {
        #expect(Self.features("good").count == 50)
        #expect(Self.features("bad").count == 12)
    }

    @Test(arguments: features("good"))
    func goodFileGivesTheReferencePickles(name: String) throws {
        let expected = try Self.ndjson("good", name + ".pickles.ndjson").compactMap { $0["pickle"] as? [String: Any] }.map(Self.describe)
        let document = try GherkinParser.parse(try Self.text("good", name), uri: name)
        let actual = Pickle.compile(document).map(Self.describe)
        #expect(actual.count == expected.count, "\(name): \(actual.count) pickles, the reference has \(expected.count)")
        for (ours, theirs) in zip(actual, expected) {
            #expect(ours == theirs, "\(name)")
        }
    }

    @Test(arguments: features("bad"))
    func badFileIsRefusedWhereTheReferenceRefusesIt(name: String) throws {
        let errors = try Self.ndjson("bad", name + ".errors.ndjson").compactMap { $0["parseError"] as? [String: Any] }
        let lines = errors.compactMap { (($0["source"] as? [String: Any])?["location"] as? [String: Any])?["line"] as? Int }
        try #require(!lines.isEmpty)
        let text = try Self.text("bad", name)
        do throws(GherkinError) {
            let document = try GherkinParser.parse(text, uri: name)
            Issue.record("\(name): accepted with \(Pickle.compile(document).count) pickles; the reference refuses it at line \(lines[0])")
        } catch {
            #expect(
                error.line.map(lines.contains) == true,
                "\(name): we refuse it at line \(error.line ?? 0) (\(error.message)); the reference at \(lines)")
        }
    }

    /// A reference pickle as comparable text.
    static func describe(_ pickle: [String: Any]) -> String {
        let location = pickle["location"] as? [String: Any]
        let tags = (pickle["tags"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        var lines = ["\(pickle["name"] as? String ?? "") @\(location?["line"] as? Int ?? 0) [\(tags.joined(separator: " "))]"]
        for step in pickle["steps"] as? [[String: Any]] ?? [] {
            lines.append("  \(step["type"] as? String ?? "Unknown") \(step["text"] as? String ?? "")")
            let argument = step["argument"] as? [String: Any]
            if let doc = argument?["docString"] as? [String: Any] {
                lines.append("    doc(\(doc["mediaType"] as? String ?? "")): \(doc["content"] as? String ?? "")")
            }
            for row in (argument?["dataTable"] as? [String: Any])?["rows"] as? [[String: Any]] ?? [] {
                let cells = (row["cells"] as? [[String: Any]] ?? []).map { $0["value"] as? String ?? "" }
                lines.append("    | " + cells.joined(separator: " | "))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Ours, the same way.
    static func describe(_ pickle: Pickle) -> String {
        var lines = ["\(pickle.specName) @\(pickle.line) [\(pickle.tags.joined(separator: " "))]"]
        for step in pickle.steps {
            lines.append("  \(step.pickleType) \(step.text)")
            if let doc = step.docString { lines.append("    doc(\(doc.mediaType ?? "")): \(doc.content)") }
            for row in step.dataTable?.rows ?? [] { lines.append("    | " + row.joined(separator: " | ")) }
        }
        return lines.joined(separator: "\n")
    }
}
