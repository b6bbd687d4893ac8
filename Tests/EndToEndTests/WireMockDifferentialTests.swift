import Foundation
import Testing

/// WireMock's own Python client (PyPI `wiremock`) drives real WireMock (the 2.35 standalone jar that ships in
/// that wheel, on Java) and `sut-launch serve` through the same session (WireMock/client_script.py): mappings
/// added, read back, updated and removed (by id and by metadata), priorities, scenarios, templating, request
/// counts, finds, the journal, unmatched requests and near misses; which mapping answers each of 173 requests
/// (URL, header, query, cookie, JSON and JSONPath matchers); which answers each of 1,000 requests to the date,
/// credential, binary, `anything` and multipart matchers, and which of those mappings both refuse
/// (WireMock/matchers_script.py); and the answers of 48 templates over the helpers (math, dates parsed, shifted and
/// printed, strings, JSON, regular expressions, form data; WireMock/helpers_script.py, 53 where the system's tz
/// database is installed). Every observation must be the same. WireMock runs in UTC with UTF-8 as Java's
/// default charset, so that a local date-time and a password's bytes read the same on every machine.
@Suite struct WireMockDifferentialTests {
    static let script = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/WireMock/client_script.py").path

    /// The standalone jar inside the Python client's package, when both Java and the client are installed.
    static let jar: String? = {
        guard CLI.hasCommand("java"), CLI.hasCommand("python3") else { return nil }
        let finder =
            "import glob, os, wiremock; print((glob.glob(os.path.join(os.path.dirname(wiremock.__file__), 'server', '*.jar')) or [''])[0])"
        guard
            let path = try? CLI.output(of: ["python3", "-c", finder], in: FileManager.default.temporaryDirectory)
                .trimmingCharacters(in: .whitespacesAndNewlines), path.hasSuffix(".jar")
        else { return nil }
        return path
    }()

    @Test(
        .enabled(
            if: jar != nil, "needs java and the Python WireMock client: pip install wiremock (scripts/install-test-deps.sh installs it)"))
    func wireMocksOwnClientSeesTheSameServer() throws {
        let wireMockPort = try CLI.freePort()
        let ourPort = try CLI.freePort()
        let wireMock = try Self.start(
            "/usr/bin/env",
            [
                "java", "-Duser.timezone=UTC", "-Dfile.encoding=UTF-8", "-jar", Self.jar!, "--port", String(wireMockPort),
                "--local-response-templating",
                "--disable-banner",
            ])
        defer {
            wireMock.terminate()
            wireMock.waitUntilExit()
        }
        let ours = try Self.start(CLI.sutLaunch, ["serve", "-q", "--port", String(ourPort)])
        defer {
            ours.terminate()
            ours.waitUntilExit()
        }
        for port in [wireMockPort, ourPort] {
            // The JVM takes seconds to listen; we take milliseconds.
            #expect(CLI.eventually(60) { Self.answers(port) }, "nothing answers on port \(port)")
        }

        // The client's admin session, the templating table (one mapping per template, the same request), then
        // request matching (the same mappings, the same 173 requests: which mapping answers each), then the date,
        // credential, binary and multipart matchers in groups, then the helpers.
        for (script, minimum) in [(Self.script, 25), (Self.templates, 50), (Self.matching, 130), (Self.matchers, 1000), (Self.helpers, 48)]
        {
            let expected = try Self.session(script, "http://127.0.0.1:\(wireMockPort)")
            let actual = try Self.session(script, "http://127.0.0.1:\(ourPort)")
            #expect(
                expected.count >= minimum && expected.last == "exit status 0",
                "the session against WireMock stopped early:\n\(expected.joined(separator: "\n"))")
            for (index, line) in expected.enumerated() {
                let ourLine = index < actual.count ? actual[index] : "(nothing)"
                #expect(ourLine == line, "WireMock: \(line)\nsut-launch: \(ourLine)")
            }
            #expect(actual.count == expected.count, "sut-launch:\n\(actual.joined(separator: "\n"))")
        }
    }

    static let templates = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/WireMock/templates_script.py").path
    static let matching = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/WireMock/matching_script.py").path
    static let matchers = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/WireMock/matchers_script.py").path
    static let helpers = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/WireMock/helpers_script.py").path

    /// The script's lines, then `exit status N`: a script that raised stopped both sessions at the same request, and
    /// nothing after it was compared (a body with a byte order mark, which http.client would not send, hid 500 XML
    /// requests that way).
    private static func session(_ script: String, _ base: String) throws -> [String] {
        try CLI.output(
            of: ["sh", "-c", #"python3 "$0" "$1"; echo "exit status $?""#, script, base], in: FileManager.default.temporaryDirectory
        )
        .split(separator: "\n").map(String.init)
    }

    private static func start(_ executable: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.environment = CLI.localEnvironment
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private static func answers(_ port: UInt16) -> Bool {
        guard let url = URL(string: "http://127.0.0.1:\(port)/__admin/mappings"), let data = try? Data(contentsOf: url) else {
            return false
        }
        return !data.isEmpty
    }
}
