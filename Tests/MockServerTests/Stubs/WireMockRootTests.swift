import Foundation
import Testing

@testable import MockServer

/// A WireMock root as WireMock reads it: `mappings/` recursively (149 mappings in subdirectories of real projects'
/// roots were skipped without a word), `__files/` with subdirectories, and what is not loaded named.
@Suite struct WireMockRootTests {
    private func root(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wiremock-root-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    private static func mapping(_ url: String, _ body: String) -> String {
        #"{ "request": { "method": "GET", "url": "\#(url)" }, "response": { "status": 200, "body": "\#(body)" } }"#
    }

    @Test func mappingsInSubdirectoriesLoadInPathOrderAndOtherFilesAreNamed() throws {
        let root = try root([
            "mappings/top.json": Self.mapping("/top", "top"),
            "mappings/users/get.json": Self.mapping("/users", "users"),
            "mappings/users/deep/er/one.json":
                #"{ "mappings": [ { "request": { "url": "/deep" }, "response": { "bodyFileName": "users/deep.txt" } } ] }"#,
            "mappings/users/notes.md": "# not a mapping",
            "__files/users/deep.txt": "from a subdirectory of __files",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let set = try StubLoader.load(root.path)
        // Path order, depth first, as `find` with sorted names: users/deep/… before users/get.json.
        #expect(set.stubs.map(\.name) == ["GET /top", "ANY /deep", "GET /users"])
        #expect(
            set.files.map { $0.replacingOccurrences(of: root.path + "/", with: "") } == [
                "mappings/top.json", "mappings/users/deep/er/one.json", "mappings/users/get.json",
            ])
        #expect(set.notices == ["\(root.path)/mappings/users/notes.md: not loaded (a mapping file's name ends in .json)"])
        #expect(set.stubs[1].responses[0].response.body == Array("from a subdirectory of __files".utf8))
    }

    @Test func aRootWhoseMappingsHoldNothingSaysSo() throws {
        let root = try root(["mappings/README.md": "nothing here", "__files/x.txt": "x"])
        defer { try? FileManager.default.removeItem(at: root) }
        let set = try StubLoader.load(root.path)
        #expect(set.stubs.isEmpty)
        #expect(set.notices.count == 2)
        #expect(set.notices.last == "\(root.path)/mappings: no mappings in it: nothing loaded from \(root.path)")
    }

    @Test func aBrokenMappingDeepInsideIsNamedWithItsPath() throws {
        let root = try root(["mappings/a/b/bad.json": #"{ "request": { "url": "/x", "methd": "GET" }, "response": {} }"#])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(throws: StubError.self) { try StubLoader.load(root.path) }
        do { _ = try StubLoader.load(root.path) } catch { #expect(error.description.contains("mappings/a/b/bad.json:1:"), "\(error)") }
    }

    /// r9d: a bare array in `mappings/` loaded as native routes (`[]` as nothing, in silence); WireMock 2.35 refuses
    /// the file ("Cannot deserialize … StubMappingCollection from Array value"). Named itself, a native array loads.
    @Test(arguments: ["[]", #"[ { "request": { "url": "/a" }, "response": { "status": 200 } } ]"#])
    func aBareArrayInMappingsIsRefusedAsWireMockRefusesIt(text: String) throws {
        let root = try root(["mappings/top.json": Self.mapping("/top", "top"), "mappings/sub/list.json": text])
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            _ = try StubLoader.load(root.path)
            Issue.record("a bare array in mappings/ loaded")
        } catch {
            #expect(error.description.contains("mappings/sub/list.json:1:1: a JSON array is not a mapping file"), "\(error)")
        }
        var skipped: [StubError] = []
        let lenient = try StubLoader.load(root.path) { skipped.append($0) }
        #expect(lenient.stubs.map(\.name) == ["GET /top"] && skipped.count == 1)
        let native = root.appendingPathComponent("native.json")
        try Data(#"[ { "method": "GET", "path": "/n", "body": "n" } ]"#.utf8).write(to: native)
        #expect(try StubLoader.load(native.path).stubs.count == 1)
    }

    /// Fourth hostile review: `{"mappings": []}` loaded as a silent empty server; `root/mappings/` (the docs' own
    /// form) broke on its slash and `root/mappings` skipped its subdirectories; a non-UTF-8 name was "no such file".
    @Test func emptyMappingsSlashesAndNamesThatAreNotUTF8AreSaid() throws {
        let root = try root([
            "mappings/a.json": #"{ "mappings": [] }"#, "mappings/sub/b.json": Self.mapping("/b", "b"), "__files/x.txt": "x",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let empty = try self.root(["mappings/a.json": #"{ "mappings": [] }"#])
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(try StubLoader.load(empty.path).notices.last?.hasSuffix("no mappings in it: nothing loaded from \(empty.path)") == true)
        for form in [root.path + "/", root.path + "/mappings", root.path + "/mappings/", root.path + "//"] {
            #expect(try StubLoader.load(form).stubs.map(\.name) == ["GET /b"], "\(form)")
        }
        let raw = Array(root.appendingPathComponent("mappings").path.utf8) + Array("/bad".utf8) + [0xFF, 0xFE] + Array(".json".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        #expect(fd >= 0)
        close(fd)
        let set = try StubLoader.load(root.path)
        #expect(set.notices.contains { $0.contains("not loaded (its name is not UTF-8: rename it)") }, "\(set.notices)")
    }
}
