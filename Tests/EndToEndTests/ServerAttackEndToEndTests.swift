import Foundation
import Testing

/// The mock server against an outside attacker who had the README, the docs and the binary (findings of the
/// attack-core review): each test replays a finding through the real binary, real sockets and real peers.
@Suite struct ServerAttackEndToEndTests {
    /// A `files` route served any directory: `/proc/self` (sut-launch's environment, CI tokens), `/etc`, `../`, a
    /// link leading out. Its root now obeys the body files' rule; `check` and a run refuse it naming the file and key.
    @Test func aFilesRootOutsideTheStubDirectoryIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = directory.appendingPathComponent("stubs")
        try FileManager.default.createDirectory(at: stubs.appendingPathComponent("site"), withIntermediateDirectories: true)
        try "inside".write(to: stubs.appendingPathComponent("site/a.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: stubs.appendingPathComponent("etclink").path, withDestinationPath: "/etc")
        for root in ["/proc/self", "/etc", "../", "./etclink", "site/../..", ""] {
            let file = try CLI.write(#"{"routes": [{"path": "/p/**", "files": "\#(root)"}]}"#, "f.json", in: stubs)
            let check = try CLI.run(["check", file])
            #expect(check.status == 3 && check.stderr.contains("f.json:1:") && check.stderr.contains("\"files\""), "\(root): \(check)")
            let run = try CLI.run(["-q", "--port", "0", "--stub", file, "true"])
            #expect(run.status == 3 && run.stderr.contains("\"files\""), "\(root): \(run)")
        }
        // Inside the stub file's directory (and that directory itself) still serves.
        for root in ["./site", "site", ".", "./"] {
            let file = try CLI.write(#"{"routes": [{"path": "/p/**", "files": "\#(root)"}]}"#, "f.json", in: stubs)
            let tail = root.hasPrefix(".") && root.count <= 2 ? "site/a.txt" : "a.txt"
            let run = try CLI.run([
                "-q", "--port", "0", "--stub", file, "sh", "-c", "curl -sS --fail \"$SUT_MOCK_SERVER_URL/p/\(tail)\"",
            ])
            #expect(run.status == 0 && run.stdout == "inside", "\(root): \(run)")
        }
    }

    /// An `expect` was lost when its mapping was deleted through the admin API: exit 0 with the route never called.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func anExpectationDeletedThroughTheAdminAPIStillCounts() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"{"routes": [{"method": "GET", "path": "/need", "body": "x", "expect": {"times": 1}}], "unexpected": "fail"}"#,
            "ex.json", in: directory)
        for delete in [
            "-X DELETE \"$U/__admin/mappings\"",
            "-X DELETE \"$U/__admin/mappings/$(curl -s \"$U/__admin/mappings\" | sed 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/')\"",
        ] {
            let run = try CLI.run([
                "--admin-writes", "trust", "--port", "0", "--stub", stubs, "sh", "-c",
                "U=$SUT_MOCK_SERVER_URL; curl -s \(delete) >/dev/null",
            ])
            #expect(run.status == 4, "\(delete): \(run)")
            #expect(run.stderr.contains("deleted while expected: expected 1 call, got 0"), "\(delete): \(run.stderr)")
        }
        // Met before it was deleted: the run passes.
        let met = try CLI.run([
            "-q", "--admin-writes", "trust", "--port", "0", "--stub", stubs, "sh", "-c",
            "U=$SUT_MOCK_SERVER_URL; curl -s $U/need >/dev/null; curl -s -X DELETE $U/__admin/mappings >/dev/null",
        ])
        #expect(met.status == 0, "\(met)")
    }

    /// `check` passed an `expect` no run can satisfy (`atLeast` above `atMost`, `times` outside them).
    @Test func anExpectationThatCanNeverHoldIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (expect, words) in [
            (#"{"atLeast": 5, "atMost": 2}"#, "atMost (2) is below atLeast (5)"),
            (#"{"times": 1, "atLeast": 2}"#, "times (1) is below atLeast (2)"),
            (#"{"times": 3, "atMost": 2}"#, "times (3) is above atMost (2)"),
            (#"{"atLeast": -1}"#, "atLeast"),
        ] {
            let file = try CLI.write("{\"routes\": [\n{\"path\": \"/a\", \"expect\": \(expect)}]}", "e.json", in: directory)
            let check = try CLI.run(["check", file])
            #expect(check.status == 3 && check.stderr.contains("e.json:2:") && check.stderr.contains(words), "\(expect): \(check)")
        }
    }

    /// Invalid UTF-8 in a stub file was served as U+FFFD; JSON text is UTF-8 (RFC 8259 §8.1): refused at its place.
    @Test func invalidUTF8InAStubFileIsRefusedWhereItIs() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for bytes: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x61, 0x5C, 0x6E, 0xFE]] {
            let path = directory.appendingPathComponent("inv.json")
            let text = Array("{\"routes\": [\n{\"path\": \"/a\", \"body\": \"".utf8) + bytes + Array("\"}]}".utf8)
            try Data(text).write(to: path)
            let check = try CLI.run(["check", path.path])
            #expect(
                check.status == 3 && check.stderr.contains("inv.json:2:") && check.stderr.contains("invalid UTF-8"), "\(bytes): \(check)")
            let mapping = Array("{\"request\": {\"url\": \"/a\"}, \"response\": {\"body\": \"".utf8) + bytes + Array("\"}}".utf8)
            try Data(mapping).write(to: path)
            #expect(try CLI.run(["check", path.path]).status == 3, "\(bytes)")
        }
        // Valid multi-byte text still loads and is served byte for byte.
        try Data("{\"routes\": [{\"path\": \"/a\", \"body\": \"é€😀\"}]}".utf8).write(to: directory.appendingPathComponent("ok.json"))
        let run = try CLI.run([
            "-q", "--port", "0", "--stub", directory.appendingPathComponent("ok.json").path, "sh", "-c", "curl -s $SUT_MOCK_SERVER_URL/a",
        ])
        #expect(run.status == 0 && run.stdout == "é€😀", "\(run)")
    }

    /// A `--stub DIR` whose `mappings/` loads nothing ran an empty server and exited 0; it is exit 3 as an empty
    /// directory is, and `check` says so. `serve` still starts from it (to record into it).
    @Test func aRootWhoseMappingsLoadNothingFailsTheRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("em")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        for content in [nil, #"{"mappings": []}"#] {
            if let content { _ = try CLI.write(content, "x.json", in: root.appendingPathComponent("mappings")) }
            let run = try CLI.run(["--strict", "--port", "0", "--stub", root.path, "true"])
            #expect(run.status == 3 && run.stderr.contains("nothing loaded"), "\(run)")
            let check = try CLI.run(["check", root.path])
            #expect(check.status == 3 && check.stderr.contains("nothing loaded") && !check.stdout.contains("ok:"), "\(check)")
        }
        let served = try ServerTrustEndToEndTests.serving(["--root-dir", root.path]) { url, _ throws in
            #expect(try ServerTrustEndToEndTests.curl(["\(url)/__admin/health"]).hasSuffix(" 200"))
        }
        #expect(!served.stderr.contains("error"), "\(served)")
    }

    /// R9D-8: `{"mappings": []}` named as a file (`check FILE`, `--stub FILE`) was `ok: 0 routes` and an empty server,
    /// where the same content in a root's `mappings/` fails. It fails the same way now, also as the only file of a stub
    /// directory; beside a file that gives stubs it is a note. A native `{"routes": []}` says what it is: no route.
    @Test func aMappingsFileThatGivesNoMappingFailsAsAnEmptyRootDoes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try CLI.write(#"{"mappings": []}"#, "e.json", in: directory)
        for path in [empty, directory.path] {
            let check = try CLI.run(["check", path])
            #expect(check.status == 3 && check.stderr.contains("nothing loaded") && !check.stdout.contains("ok:"), "\(check)")
            let run = try CLI.run(["--strict", "--port", "0", "--stub", path, "true"])
            #expect(run.status == 3 && run.stderr.contains("e.json: nothing loaded"), "\(run)")
        }
        _ = try CLI.write(#"{"routes": [{"path": "/a", "body": "a"}]}"#, "r.json", in: directory)
        let both = try CLI.run(["check", directory.path])
        #expect(both.status == 0 && both.stderr.contains("no mappings in it") && both.stdout.contains("ok:"), "\(both)")
        let native = try CLI.write(#"{"routes": [], "unexpected": "fail"}"#, "n.json", in: directory)
        let nothingExpected = try CLI.run(["check", native])
        #expect(nothingExpected.status == 0 && nothingExpected.stdout.contains("0 routes"), "\(nothingExpected)")
        let served = try ServerTrustEndToEndTests.serving([empty]) { url, _ throws in
            #expect(try ServerTrustEndToEndTests.curl(["\(url)/__admin/health"]).hasSuffix(" 200"))
        }
        #expect(!served.stderr.contains("error"), "\(served)")
    }
}
