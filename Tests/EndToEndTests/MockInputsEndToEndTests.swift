import Foundation
import Testing

/// r5a: what the mock server reads (stub files, admin API input, its journal) is never read as something else: a lone
/// surrogate escape is refused where it stands, a body the journal cut is never searched as if whole, a recording
/// refused before writing leaves its root loadable, and refusals say what they are.
@Suite(.enabled(if: CLI.hasCommand("curl") && CLI.hasCommand("python3"), "needs curl and python3 (apt-get install curl python3)"))
struct MockInputsEndToEndTests {
    /// r5a-4: `"\ud800"` in a stub or mapping file, or in an admin API mapping, is refused at its line and column (it was
    /// served as U+FFFD, and matched a request that sent U+FFFD).
    @Test func aLoneSurrogateEscapeIsRefusedWhereItStands() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mapping = try CLI.write(#"{"request":{"url":"/s"},"response":{"status":200,"body":"\ud800"}}"#, "surr.json", in: directory)
        let checked = try CLI.run(["check", mapping])
        #expect(checked.status == 3 && checked.stderr.contains("surr.json:1:64: \\uD800 is a lone surrogate"), "\(checked.stderr)")
        let native = try CLI.write(#"{"routes":[{"path":"/n","requestBody":"\udc00"}]}"#, "n.json", in: directory)
        let nativeChecked = try CLI.run(["check", native])
        #expect(
            nativeChecked.status == 3 && nativeChecked.stderr.contains("n.json:1:46: \\uDC00 is a lone surrogate"),
            "\(nativeChecked.stderr)")
        let pair = try CLI.write(#"{"routes":[{"path":"/p","body":"\ud83d\ude00"}]}"#, "p.json", in: directory)
        #expect(try CLI.run(["check", pair]).status == 0) // a pair is one character

        let stubs = try CLI.write(#"{"routes":[{"method":"GET","path":"/ok","body":"ok"}]}"#, "s.json", in: directory)
        let result = try CLI.run([
            "--admin-writes", "trust", "--port", "0", "--stub", stubs, "sh", "-c",
            #"curl -s -w ' %{http_code}' -H 'Content-Type: application/json' -d '{"request":{"method":"POST","urlPath":"/sm","bodyPatterns":[{"equalTo":"\ud800"}]},"response":{"status":200,"body":"MATCHED"}}' "$SUT_MOCK_SERVER_URL/__admin/mappings""#,
        ])
        #expect(result.stdout.contains("lone surrogate") && result.stdout.hasSuffix(" 400"), "\(result.stdout)")
    }

    /// r5a-6: the admin API's journal searches over a body the journal cut (it keeps 64 KiB) answer 422 naming the cut,
    /// never a definite count (`contains` text past the cut said 0, `doesNotContain` 1); the runner's `with JSON body` step
    /// fails saying the body was cut, not "no request had it".
    @Test func aBodyTheJournalCutIsNeverSearchedAsIfWhole() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes":[{"method":"POST","path":"/up","body":"ok"}]}"#, "up.json", in: directory)
        let big = #"{"pad":""# + String(repeating: "a", count: 80_000) + #"","user":"ada"}"#
        _ = try CLI.write(big, "bigj.json", in: directory)
        _ = try CLI.write(big, "fx/bigj.json", in: directory)
        let search = try CLI.run(
            [
                "--port", "0", "--stub", stubs, "sh", "-c",
                #"curl -s --data-binary @bigj.json "$SUT_MOCK_SERVER_URL/up" >/dev/null; curl -s -w ' %{http_code}' -H 'Content-Type: application/json' -d '{"bodyPatterns":[{"contains":"ada"}]}' "$SUT_MOCK_SERVER_URL/__admin/requests/count""#,
            ], cwd: directory)
        #expect(search.stdout.contains("the journal kept the first 65536") && search.stdout.hasSuffix(" 422"), "\(search.stdout)")

        _ = try CLI.write(
            """
            Feature: big JSON
              Scenario: subset after 64 KiB
                Given the stubs "up.json"
                Given the files from "fx"
                When I run "sh -c 'curl -s --data-binary @bigj.json $SUT_MOCK_SERVER_URL/up'"
                Then the server received a request to "POST /up" with JSON body:
                  \"\"\"
                  {"user": "ada"}
                  \"\"\"
            """, "j.feature", in: directory)
        let test = try CLI.run(["test", "j.feature"], cwd: directory)
        #expect(test.status == 1, "\(test.stdout)\(test.stderr)")
        #expect((test.stdout + test.stderr).contains("the journal keeps the first 65536 of each body (it was cut)"), "\(test.stdout)")
    }

    /// r5a-7: a recording refused before its first file (`__files` is a link) leaves no in-progress marker: the root
    /// still loads (it was refused as "cut short while its files were written").
    @Test func aRecordingRefusedBeforeWritingLeavesTheRootLoadable() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data([0xFF, 0x00, 0xFE]).write(to: directory.appendingPathComponent("bin"))
        let backend = try RecordReplayEndToEndTests.Backend(files: directory)
        defer { backend.stop() }
        let root = directory.appendingPathComponent("rec")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("outside"), withIntermediateDirectories: true)
        // Planted by the program during the run: a link there before the start is refused up front (exit 2).
        let recorded = try CLI.run([
            "--port", "0", "--record-from", backend.url, "--into", root.path, "sh", "-c",
            #"ln -s "$1" "$2" && curl -s -o /dev/null "$SUT_MOCK_SERVER_URL/bin""#, "sh",
            directory.appendingPathComponent("outside").path, root.appendingPathComponent("__files").path,
        ])
        #expect(recorded.status == 4 && recorded.stderr.contains("is a symbolic link"), "\(recorded.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(".sut-recording-in-progress").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("outside").path).isEmpty)
    }

    /// r5a-9 and 12: `chunked` twice is a 400 naming it (it was "501 not supported"); a `files` route's link out is named
    /// as such (it was "no such file"); a templated `bodyFileName` is refused by name.
    @Test func refusalsSayWhatTheyAre() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("secret\n", "outside/secret.txt", in: directory)
        _ = try CLI.write("hi\n", "fr/images/a.txt", in: directory)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("fr/images/link.txt").path,
            withDestinationPath: directory.appendingPathComponent("outside/secret.txt").path)
        let stubs = try CLI.write(
            #"{"routes":[{"path":"/images/**","files":"./images"},{"method":"POST","path":"/ok","body":"ok"}]}"#, "fr/s.json", in: directory
        )
        let chunked = try CLI.write(
            """
            import os, socket
            port = int(os.environ["SUT_MOCK_SERVER_URL"].rsplit(":", 1)[1])
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"POST /ok HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n5\\r\\nhello\\r\\n0\\r\\n\\r\\n")
            print(s.recv(200).split(b"\\r\\n")[0].decode())
            """, "chunked.py", in: directory)
        let result = try CLI.run([
            "--port", "0", "--stub", stubs, "sh", "-c", #"python3 "$0"; curl -s "$SUT_MOCK_SERVER_URL/images/link.txt""#, chunked,
        ])
        #expect(result.stdout.hasPrefix("HTTP/1.1 400"), "\(result.stdout)")
        #expect(result.stderr.contains("transfer coding chunked is given more than once"), "\(result.stderr)")
        #expect(result.stderr.contains("a link that leads out of the directory"), "\(result.stderr)")
        #expect(!result.stdout.contains("secret"))

        _ = try CLI.write("x", "bf/__files/a.txt", in: directory)
        let templated = try CLI.write(
            #"{"request":{"url":"/f"},"response":{"status":200,"bodyFileName":"{{request.query.f}}","transformers":["response-template"]}}"#,
            "bf/mappings/m.json", in: directory)
        let checked = try CLI.run(["check", templated])
        #expect(checked.status == 3 && checked.stderr.contains("a templated file name"), "\(checked.stderr)")
    }
}
