import Foundation
import Testing

/// A recording root that cannot take the recording (R9D-17): found before the session, not at its stop, and one name
/// that cannot be written costs only its own mapping, never the rest of the session.
@Suite struct RecordingRootEndToEndTests {
    /// `mappings` (or `__files`) in `--into DIR` that is a link: exit 2 naming it before anything launches (it was found
    /// at the stop, after the whole session had been answered, and nothing was written).
    @Test func aLinkAtMappingsInTheRootIsRefusedBeforeLaunch() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = directory.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let marker = directory.appendingPathComponent("launched").path
        let backend = "http://127.0.0.1:\(try CLI.freePort())"
        for place in ["mappings", "__files"] {
            let root = directory.appendingPathComponent("root-\(place)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(place).path, withDestinationPath: outside.path)
            for arguments in [
                ["--port", "0", "--record-from", backend, "--into", root.path, "touch", marker],
                ["record", "--port", "0", "--target", backend, "--into", root.path],
                ["serve", "--port", "0", "--proxy-all", backend, "--record-mappings", "--root-dir", root.path],
            ] {
                let result = try CLI.run(arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("\"\(place)\"") && result.stderr.contains("symbolic link"), "\(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: marker))
            }
        }
    }

    /// A directory standing at one recorded mapping's name: that mapping is named as not written (exit 4), and every
    /// other exchange of the session is still written (none was).
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func aNameThatCannotBeWrittenCostsOnlyItsOwnMapping() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stub = try CLI.write(#"{"request":{"urlPattern":"/.*"},"response":{"status":200,"body":"x"}}"#, "any.json", in: directory)
        let backendPort = try CLI.freePort()
        let first = directory.appendingPathComponent("first").path
        let second = directory.appendingPathComponent("second").path
        func record(_ root: String, _ paths: [String]) throws -> CLI.Result {
            let calls = paths.map { #"curl -s -o /dev/null "$SUT_MOCK_SERVER_URL\#($0)""# }.joined(separator: "; ")
            return try CLI.run(["--port", "0", "--record-from", "http://127.0.0.1:\(backendPort)", "--into", root, "sh", "-c", calls])
        }
        var results: [CLI.Result] = []
        _ = try CLI.run(["serve", "-q", "--port", String(backendPort), stub]) { process, _ in
            defer { kill(process.processIdentifier, SIGKILL) }
            _ = CLI.eventually(20) { CLI.loopbackSocket(backendPort).map { close($0) } != nil }
            results.append(try record(first, ["/a"]))
            let taken = try FileManager.default.contentsOfDirectory(atPath: first + "/mappings")
            try #require(taken.count == 1, "\(taken)")
            try FileManager.default.createDirectory(atPath: second + "/mappings/" + taken[0], withIntermediateDirectories: true)
            results.append(try record(second, ["/a", "/b"]))
        }
        try #require(results.count == 2)
        #expect(results[0].status == 0, "\(results[0].stderr)")
        let result = results[1]
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("was not written into") && result.stderr.contains("is a directory"), "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: second + "/mappings")
        #expect(written.contains { $0.hasPrefix("get-b-") }, "\(written)")
        #expect(!FileManager.default.fileExists(atPath: second + "/.sut-recording-in-progress"), "the root loads")
    }
}
