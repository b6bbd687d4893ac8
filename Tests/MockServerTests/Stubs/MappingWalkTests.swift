import Foundation
import Testing

@testable import MockServer

/// The walk of a WireMock root's `mappings/` stays in the root (issue 28): a link leading out of it (a planted
/// `mappings/x -> /etc`, `mappings/a.json -> /home/…/secret.json`) is refused by name, skipped with lenient loading and
/// the load's failure without; links that stay inside are followed; a cycle of links ends; depth and entries are bounded.
@Suite struct MappingWalkTests {
    private let manager = FileManager.default

    /// A root with one mapping (`/kept`) and an outside directory holding a mapping that must never load.
    private func root() throws -> (root: URL, outside: URL) {
        let base = manager.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        let root = base.appendingPathComponent("root")
        let outside = base.appendingPathComponent("outside")
        try manager.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        try Self.mapping("/kept").write(to: root.appendingPathComponent("mappings/kept.json"), atomically: true, encoding: .utf8)
        try Self.mapping("/secret").write(to: outside.appendingPathComponent("secret.json"), atomically: true, encoding: .utf8)
        return (root, outside)
    }

    private static func mapping(_ url: String) -> String {
        #"{ "request": { "method": "GET", "url": "\#(url)" }, "response": { "status": 200, "body": "x" } }"#
    }

    private func link(_ root: URL, _ name: String, to target: String) throws {
        try manager.createSymbolicLink(atPath: root.appendingPathComponent(name).path, withDestinationPath: target)
    }

    @Test(arguments: ["file", "directory", "system"])
    func aLinkLeadingOutOfTheRootIsRefusedByNameAndFailsAStrictLoad(kind: String) throws {
        let (root, outside) = try root()
        defer { try? manager.removeItem(at: root.deletingLastPathComponent()) }
        let target = kind == "file" ? outside.appendingPathComponent("secret.json").path : kind == "directory" ? outside.path : "/etc"
        try link(root, "mappings/escape", to: target)
        #expect {
            try StubLoader.load(root.path)
        } throws: {
            let text = "\($0)"
            return text.contains("mappings/escape") && text.contains("a link leading outside") && !text.contains("\n")
        }
        var skipped: [StubError] = []
        let set = try StubLoader.load(root.path) { skipped.append($0) }
        #expect(set.stubs.map(\.name) == ["GET /kept"])
        #expect(skipped.count == 1)
        #expect(skipped.first?.description.contains("not followed") == true, "\(skipped)")
    }

    /// `mappings` itself a link is the root's layout (its owner's, as documented): followed, and then what it leads
    /// to is the boundary for the links below it.
    @Test func aMappingsDirectoryThatIsItselfALinkIsFollowedAndBoundsTheLinksBelowIt() throws {
        let (root, outside) = try root()
        defer { try? manager.removeItem(at: root.deletingLastPathComponent()) }
        try manager.removeItem(at: root.appendingPathComponent("mappings"))
        try link(root, "mappings", to: outside.path)
        #expect(try StubLoader.load(root.path).stubs.map(\.name) == ["GET /secret"])
        try link(outside, "back.json", to: root.appendingPathComponent("elsewhere.json").path)
        try Self.mapping("/elsewhere").write(to: root.appendingPathComponent("elsewhere.json"), atomically: true, encoding: .utf8)
        #expect { try StubLoader.load(root.path) } throws: { "\($0)".contains("back.json") && "\($0)".contains("a link leading outside") }
    }

    @Test func linksThatStayInsideAreFollowedAndACycleEnds() throws {
        let (root, _) = try root()
        defer { try? manager.removeItem(at: root.deletingLastPathComponent()) }
        try manager.createDirectory(at: root.appendingPathComponent("shared/more"), withIntermediateDirectories: true)
        try Self.mapping("/shared").write(to: root.appendingPathComponent("shared/more/one.json"), atomically: true, encoding: .utf8)
        try link(root, "mappings/alias", to: "../shared") // a directory inside the root, by a relative link
        try link(root, "mappings/loop", to: ".") // a cycle: mappings/loop/loop/… is mappings again
        try link(root, "mappings/dangling.json", to: "missing.json") // named when read, never skipped in silence
        #expect { try StubLoader.load(root.path) } throws: { "\($0)".contains("dangling.json") }
        try manager.removeItem(at: root.appendingPathComponent("mappings/dangling.json"))
        let set = try StubLoader.load(root.path)
        #expect(set.stubs.map(\.name).sorted() == ["GET /kept", "GET /shared"])
    }

    @Test func thousandsOfEntriesAndDeepTreesAreBoundedByName() throws {
        let (root, _) = try root()
        defer { try? manager.removeItem(at: root.deletingLastPathComponent()) }
        var deep = root.appendingPathComponent("mappings")
        for level in 0..<70 { deep = deep.appendingPathComponent("d\(level)") }
        try manager.createDirectory(at: deep, withIntermediateDirectories: true)
        #expect { try StubLoader.load(root.path) } throws: { "\($0)".contains("deeper than 64 directories") }
    }
}
