import Foundation
import Testing

/// Record and replay against the WireMock 2.35 jar (issue 27), driven by WireMock/recording_script.py: a Python
/// backend recorded through `sut-launch record` answers the same through sut-launch's replay and WireMock's, and
/// what WireMock's own recorder writes answers the same in sut-launch as in WireMock (JSON, gzip, binary, a 42 KB
/// body, a query, a JSON POST, a counter replayed in order).
@Suite struct WireMockRecordingDifferentialTests {
    static let script = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/WireMock/recording_script.py").path

    @Test(.enabled(if: WireMockDifferentialTests.jar != nil, "needs java and the Python WireMock client: pip install wiremock"))
    func recordingsReplayAsWireMocksDoAndTheReverse() throws {
        let work = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = try CLI.output(of: ["python3", Self.script, WireMockDifferentialTests.jar!, CLI.sutLaunch, work.path])
        let lines = output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("ok ") }.count == 36, "\(output)")
        #expect(!lines.contains { $0.hasPrefix("DIFF") }, "\(output)")
        #expect(lines.last == "0 disagreements", "\(output)")
    }

    /// r11 R11-6: a templated `proxyBaseUrl` (its path) and `additionalProxyRequestHeaders` value were forwarded as
    /// written (`GET /{{request.query.x}}/q`); WireMock renders both, with the transformer named and with global templating.
    @Test(.enabled(if: WireMockDifferentialTests.jar != nil, "needs java and the Python WireMock client: pip install wiremock"))
    func templatedProxyValuesAreRenderedAsWireMockRendersThem() throws {
        let work = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let script = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/WireMock/proxy_templates_script.py").path
        let output = try CLI.output(of: ["python3", script, WireMockDifferentialTests.jar!, CLI.sutLaunch, work.path])
        let lines = output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("ok ") }.count == 6, "\(output)")
        #expect(lines.contains { $0.contains("/sub/q?x=sub X-Added=None") }, "\(output)")
        #expect(lines.contains { $0.contains("/echo?v=hello X-Added=hello") }, "\(output)")
        #expect(lines.contains { $0.contains("(200, 'echo-hello', ['/echo?v=hello X-Added=hello'])") }, "\(output)")
        #expect(lines.last == "0 disagreements", "\(output)")
    }
}
