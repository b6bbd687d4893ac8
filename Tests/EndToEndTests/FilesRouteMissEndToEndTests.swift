import Foundation
import Testing

/// R4a-16: a `files` route with no such file is not a matched call: the request is unexpected (a strict run fails),
/// the journal says `matched: false` with a near miss naming the directory and the name, and the route is not called.
@Suite struct FilesRouteMissEndToEndTests {
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func aFilesRouteWithNoSuchFileIsAnUnexpectedRequest() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("hi\n", "fr/img/a.txt", in: directory)
        let stubs = try CLI.write(#"{"routes":[{"path":"/f/**","files":"./img"}]}"#, "fr/f.json", in: directory)
        let journal = directory.appendingPathComponent("j.json").path
        let missing = try CLI.run([
            "--strict", "--journal", journal, "--port", "0", "--stub", stubs, "sh", "-c",
            #"curl -s -o /dev/null -w "%{http_code}\n" "$SUT_MOCK_SERVER_URL/f/missing.png""#,
        ])
        #expect(missing.status == 4, "\(missing.stderr)")
        #expect(missing.stdout == "404\n")
        #expect(missing.stderr.contains("1 request, 1 unexpected"), "\(missing.stderr)")
        #expect(
            missing.stderr.contains(#"file: expected a file below "#) && missing.stderr.contains(#"no such file: "missing.png""#),
            "\(missing.stderr)")
        let written = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(written.contains(#""matched":false"#) && !written.contains(#""matched":true"#), "\(written)")

        let found = try CLI.run([
            "--strict", "--port", "0", "--stub", stubs, "sh", "-c",
            #"curl -s "$SUT_MOCK_SERVER_URL/f/a.txt"; curl -s -o /dev/null -w "%{http_code}\n" "$SUT_MOCK_SERVER_URL/f/%2E%2E/f.json""#,
        ])
        #expect(found.status == 4, "\(found.stderr)") // the file is served; '..' is not a file name: unexpected
        #expect(found.stdout == "hi\n404\n", "\(found.stdout)")
        #expect(found.stderr.contains("2 requests, 1 unexpected"), "\(found.stderr)")

        let notUTF8 = try CLI.run([
            "--port", "0", "--stub", stubs, "sh", "-c", #"curl -s -o /dev/null -w "%{http_code}\n" "$SUT_MOCK_SERVER_URL/f/n%FF""#,
        ])
        #expect(notUTF8.stderr.contains("its name is not UTF-8"), "\(notUTF8.stderr)")
    }

    /// m3: a link out of the directory, a directory and a dangling link are refused as before, each for its real reason
    /// (all three were "no such file"); the file outside is never served.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func aFilesRouteMissNamesTheRealReason() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("secret\n", "fr/outside.txt", in: directory)
        _ = try CLI.write("hi\n", "fr/img/sub/a.txt", in: directory)
        let stubs = try CLI.write(#"{"routes":[{"path":"/f/**","files":"./img"}]}"#, "fr/f.json", in: directory)
        let image = directory.appendingPathComponent("fr/img")
        try FileManager.default.createSymbolicLink(
            atPath: image.appendingPathComponent("link.txt").path, withDestinationPath: "../outside.txt")
        try FileManager.default.createSymbolicLink(atPath: image.appendingPathComponent("dead.txt").path, withDestinationPath: "nowhere")
        let result = try CLI.run([
            "--strict", "--port", "0", "--stub", stubs, "sh", "-c",
            #"for n in link.txt sub dead.txt; do curl -s "$SUT_MOCK_SERVER_URL/f/$n"; echo; done"#,
        ])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(!result.stdout.contains("secret"), "\(result.stdout)")
        for reason in [
            #"a link that leads out of the directory (only files inside it are served): "link.txt""#,
            #"a directory, not a file: "sub""#, #"a link to nothing (no such file at its target): "dead.txt""#,
        ] {
            #expect(result.stderr.contains(reason), "\(reason)\n\(result.stderr)")
        }
    }
}
