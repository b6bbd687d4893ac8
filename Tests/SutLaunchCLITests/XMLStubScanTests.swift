import Foundation
import Testing

@testable import SutLaunchCLI

/// The look `test` and `check` take, in a static executable, for stubs that need libxml2 (and so the companion).
@Suite struct XMLStubScanTests {
    private func tree(_ files: [String: String]) throws -> String {
        let root = "/tmp/xml-scan-\(UInt32.random(in: 0...UInt32.max))"
        for (name, text) in files {
            let path = root + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        }
        return root
    }

    @Test func findsMatchersInNestedMappingsAndFeatureDocStrings() throws {
        let nested = try tree([
            "features/a.feature": "Feature: a", "features/stubs/deep/m.json": #"{"bodyPatterns":[{"matchesXPath":"/a"}]}"#,
        ])
        #expect(XMLStubScan.mentionsXML([nested + "/features"]))
        // A feature file named alone: the files beside it, and below them, are looked at.
        #expect(XMLStubScan.mentionsXML([nested + "/features/a.feature"]))
        #expect(XMLStubScan.mentionsXML([nested + "/features/stubs/deep"]))
        let beside = try tree(["f/a.feature": "Feature: a", "f/routes.json": #"{"body":"{{xPath request.body '/a'}}"}"#])
        #expect(XMLStubScan.mentionsXML([beside + "/f/a.feature"]))
        let inline = try tree(["a.feature": "Feature: a\n  Scenario: s\n    Given stubs:\n      \"\"\"\n      {\"equalToXml\": \"<a/>\"}\n"]
        )
        #expect(XMLStubScan.mentionsXML([inline]))
    }

    @Test func otherFilesAndPlainStubsDoNotAskForTheCompanion() throws {
        let plain = try tree([
            "features/a.feature": "Feature: a", "features/routes.json": #"{"routes":[{"path":"/xml"}]}"#,
            "features/notes.txt": "equalToXml", "features/.hidden/m.json": "matchesXPath",
        ])
        #expect(XMLStubScan.mentionsXML([plain + "/features"]) == false)
        #expect(XMLStubScan.mentionsXML([plain + "/missing"]) == false)
    }

    @Test func aLinkLoopEndsAtTheDepthLimit() throws {
        let root = try tree(["d/a.feature": "Feature: a"])
        try FileManager.default.createSymbolicLink(atPath: root + "/d/loop", withDestinationPath: "..")
        #expect(XMLStubScan.mentionsXML([root + "/d"]) == false)
    }
}
