import AutomationTesting
import Foundation
import Testing

/// Attack r5c-8 on the Swift API: a program a test launches against a `MockServerBuilder` server cannot add a
/// catch-all mapping through `/__admin` (refused, unexpected) unless the test says `.adminWrites(.allow)` (answers of
/// the program's mappings unexpected) or `.trust` (calls, marked). Lenient, so the unexpected ones are counted here
/// rather than recorded as issues of this test.
@Suite(.automationScope) struct AdminWritesBuilderTests {
    static let catchAll = #"{"request":{"method":"ANY","urlPattern":".*"},"response":{"status":200},"priority":1}"#

    /// Runs the reproduction as the program under test (a shell script with curl): the catch-all, then `/zzz`.
    private func program(_ url: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sut-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.catchAll.write(to: directory.appendingPathComponent("catch.json"), atomically: true, encoding: .utf8)
        let script = directory.appendingPathComponent("program.sh")
        try """
        curl -s -o /dev/null -w '%{http_code} ' -H content-type:application/json -d @"$(dirname "$0")/catch.json" "$1/__admin/mappings"
        curl -s -o /dev/null -w '%{http_code}' "$1/zzz"
        """.write(to: script, atomically: true, encoding: .utf8)
        return try SUTApplication.run("sh \(script.path) \(url)").stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
    func aBuildersServerIsReadOnlyToTheProgramUnlessTold() throws {
        let refused = try MockServerBuilder().route("GET /a") { _, _ in .ok(text: "a") }.lenient().start()
        #expect(try program(refused.url) == "403 404")
        #expect(refused.summary.unexpectedTotal == 2)
        #expect(refused.summary.unexpected.first?.nearMiss.contains("--admin-writes allow") == true)

        let allowed = try MockServerBuilder().route("GET /a") { _, _ in .ok(text: "a") }.lenient().adminWrites(.allow).start()
        #expect(try program(allowed.url) == "201 200")
        #expect(allowed.summary.unexpectedTotal == 1)
        #expect(
            allowed.summary.unexpected.first?.nearMiss.contains("answered by a mapping the program added") == true,
            "\(allowed.summary.render())")
        #expect(allowed.journal.ordered.last?.programMapping == true)

        let trusted = try MockServerBuilder().route("GET /a") { _, _ in .ok(text: "a") }.lenient().adminWrites(.trust).start()
        let out = try program(trusted.url)
        #expect(out == "201 200", "\(out) \(trusted.summary.render())")
        #expect(trusted.summary.unexpectedTotal == 0)
        #expect(trusted.summary.routes.contains { $0.addedByProgram && $0.calls == 1 })
    }
}
