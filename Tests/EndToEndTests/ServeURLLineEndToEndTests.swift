import Foundation
import Testing

/// R4a-21: `serve` whose URL line cannot be written (stdout on /dev/full, or closed) ends at once with exit 74
/// naming it; it served on silently until stopped, and a script waiting for the first line waited forever.
@Suite struct ServeURLLineEndToEndTests {
    @Test(arguments: [">/dev/full", ">&-"])
    func aURLLineThatCannotBeWrittenEndsServeAtOnce(redirection: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = Date()
        let output = try CLI.output(
            of: ["sh", "-c", "timeout -s KILL 30 \"$0\" serve --port 0 \(redirection) 2>err </dev/null; echo $?; cat err", CLI.sutLaunch],
            in: directory)
        #expect(Date().timeIntervalSince(started) < 20, "\(output)")
        #expect(output.hasPrefix("74\n"), "\(output)")
        #expect(output.contains("cannot write the server's URL line to standard output"), "\(output)")
    }
}
