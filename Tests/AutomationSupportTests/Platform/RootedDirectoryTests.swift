import AutomationSupport
import Foundation
import Testing

/// The rooted writer on its own: refused paths, links and hard links at the name, no-replace, removal.
@Suite struct RootedDirectoryTests {
    private func withRoot(_ body: (String, RootedDirectory) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rooted-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path, try RootedDirectory(path, create: true))
    }

    @Test(arguments: [
        "..", "a/../b", "/etc/passwd", "a//b", "a/", "a\0b", String(repeating: "x", count: 256), String(repeating: "é", count: 128),
    ])
    func pathsThatLeaveOrCannotBeNamesAreRefused(_ relative: String) throws {
        try withRoot { _, root in
            #expect(throws: RootedDirectory.Error.self) { try root.write([1], to: relative) }
        }
    }

    @Test func aNameOf255BytesIsAccepted() throws {
        try withRoot { path, root in
            let name = String(repeating: "é", count: 127) + "x"
            try root.write(Array("ok".utf8), to: "./d/" + name)
            #expect(FileManager.default.contents(atPath: path + "/d/" + name) == Data("ok".utf8))
        }
    }

    @Test func aLinkOrHardLinkAtTheNameIsReplacedNotWrittenThrough() throws {
        try withRoot { path, root in
            let outside = path + "-outside"
            try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
            defer { try? FileManager.default.removeItem(atPath: outside) }
            try FileManager.default.createSymbolicLink(atPath: path + "/link", withDestinationPath: outside)
            try FileManager.default.linkItem(atPath: outside, toPath: path + "/hard")
            try root.write(Array("new".utf8), to: "link")
            try root.write(Array("new".utf8), to: "hard")
            #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep")
            #expect(root.kind(of: "link") == .file && root.read("hard") == Array("new".utf8))
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: path)) == ["link", "hard"]) // no temporary left
        }
    }

    @Test func withoutReplacingADanglingLinkIsNotWrittenThrough() throws {
        try withRoot { path, root in
            try FileManager.default.createSymbolicLink(atPath: path + "/new.txt", withDestinationPath: path + "-created")
            #expect(throws: RootedDirectory.Error.self) { try root.write([1], to: "new.txt", replacing: false) }
            #expect(!FileManager.default.fileExists(atPath: path + "-created"))
        }
    }

    @Test func aLinkOnTheWayIsRefusedForWritingAndReading() throws {
        try withRoot { path, root in
            try FileManager.default.createSymbolicLink(atPath: path + "/up", withDestinationPath: "/")
            let error = #expect(throws: RootedDirectory.Error.self) { try root.write([1], to: "up/tmp/x") }
            #expect(error?.description.contains("is a symbolic link") == true)
            #expect(root.read("up/etc/hostname") == nil)
        }
    }

    @Test(arguments: [
        ("sub", 0, true), ("a/b", 0, true), ("../x", 1, true), ("../../x", 1, false), ("/etc", 3, false),
        ("a/../..", 2, false), ("b/..", 0, false), ("", 0, false), (".", 0, true),
    ])
    func linkTargetsThatStayInside(_ target: String, _ depth: Int, _ inside: Bool) {
        #expect(RootedDirectory.staysInside(target, depth: depth) == inside)
    }

    @Test func removingADeepTreeNeedsOneDescriptorAndFollowsNoLink() throws {
        try withRoot { path, root in
            let outside = path + "-keep"
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: outside + "/file"))
            defer { try? FileManager.default.removeItem(atPath: outside) }
            var deep = "t"
            for _ in 0..<1500 { deep += "/d" }
            _ = try root.directory(deep)
            try FileManager.default.createSymbolicLink(atPath: path + "/t/d/out", withDestinationPath: outside)
            root.remove(entry: Array("t".utf8CString))
            #expect(root.kind(of: "t") == nil)
            #expect(FileManager.default.fileExists(atPath: outside + "/file"))
        }
    }
}

/// Names made from scenario and feature names.
@Suite struct FileNameTests {
    @Test func aLongCJKNameIsCutAtACharacterBoundaryWithAStableSuffix() {
        let name = String(repeating: "漢字テスト", count: 18)
        let component = FileName.component(name)
        #expect(component.utf8.count <= FileName.byteLimit && component.hasSuffix("-" + FileName.hash(name)))
        #expect(FileName.component(name) == component)
        #expect(FileName.component(name + "x") != component)
    }

    @Test func separatorsControlsAndDotsAreCleanedAndMarked() {
        #expect(FileName.component("it fails line 2") == "it fails line 2")
        for text in ["a/b", "a\nb", "a\0b", "..", ".", "", "a\\b"] {
            let component = FileName.component(text)
            #expect(
                !component.contains("/") && !component.contains("\n") && !component.contains("\0") && component != ".." && component != ".")
            #expect(component.hasSuffix(FileName.hash(text)))
        }
        #expect(FileName.component("Login", key: "a.feature") != FileName.component("login", key: "b.feature"))
    }

    /// R10B-9: a name starting with `.` made a hidden directory, which `ls` and a CI's upload (upload-artifact skips
    /// hidden files by default) leave out; only the leading dot is replaced.
    @Test func aLeadingDotIsReplacedSoNoNameIsHidden() {
        #expect(FileName.component(".hidden scenario line 2") == "_hidden scenario line 2-" + FileName.hash(".hidden scenario line 2"))
        #expect(FileName.component(".env loading", key: "f/x.feature") == "_env loading-" + FileName.hash("f/x.feature"))
        #expect(FileName.component("a.b line 3") == "a.b line 3")
    }
}
