import Foundation
import Testing

/// A WireMock invocation with the binary's name swapped: `serve --root-dir DIR --port=N --bind-address …`, the options
/// that mean nothing here named one notice each, mappings in subdirectories answered (issue 28).
@Suite(.enabled(if: CLI.hasCommand("curl"), "needs curl (scripts/install-test-deps.sh installs it)"))
struct WireMockCommandLineEndToEndTests {
    private func root() throws -> URL {
        let directory = try CLI.temporaryDirectory()
        let files = [
            "root/mappings/a.json": #"{ "request": { "method": "GET", "url": "/a" }, "response": { "status": 200, "body": "a" } }"#,
            "root/mappings/team/deep/b.json":
                #"{ "mappings": [ { "request": { "method": "GET", "url": "/b" }, "response": { "bodyFileName": "nested/b.txt" } } ] }"#,
            "root/__files/nested/b.txt": "b from a nested file", "root/mappings/README.md": "# notes",
        ]
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return directory
    }

    @Test func aWireMockCommandLineServesTheRootAndNamesWhatHasNoEffect() throws {
        let directory = try root()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = [
            "serve", "--root-dir=\(directory.path)/root", "--port=0", "--bind-address", "127.0.0.1", "--verbose", "--disable-banner",
            "--local-response-templating", "--https-port", "8443", "--max-request-journal-entries", "5", "--extensions", "com.example.Ext",
        ]
        var answers: [String] = []
        let result = try CLI.run(arguments) { process, outURL in
            let deadline = Date().addingTimeInterval(20)
            var url = ""
            while Date() < deadline && url.isEmpty {
                url = ((try? String(contentsOf: outURL, encoding: .utf8)) ?? "").split(separator: "\n").first.map(String.init) ?? ""
                usleep(50_000)
            }
            answers = [try CLI.output(of: ["curl", "-sS", url + "/a"]), try CLI.output(of: ["curl", "-sS", url + "/b"])]
            process.terminate()
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(answers == ["a", "b from a nested file"], "\(result.stderr)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("note: ") }
        #expect(notes.count == 3, "\(result.stderr)")
        #expect(result.stderr.contains("note: --https-port has no effect in sut-launch serve"))
        #expect(result.stderr.contains("note: --extensions has no effect in sut-launch serve: Java extensions cannot be loaded"))
        #expect(result.stderr.contains("mappings/README.md: not loaded"))
        #expect(result.stderr.contains("serving 2 routes from 2 files"), "\(result.stderr)")
    }

    /// `--permitted-system-keys` (WireMock's option) lets `{{systemValue}}` read the variables it names, and only
    /// those; without it none is read. A pattern that is not a regular expression is a usage error.
    @Test func systemValueReadsOnlyThePermittedKeys() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mapping =
            #"{"request": {"url": "/v"}, "response": {"transformers": ["response-template"], "body": "{{systemValue key='SUT_HELPERS_SECRET'}}|{{systemValue key='PATH'}}"}}"#
        let stubs = try CLI.write(mapping, "mapping.json", in: directory)
        var environment = CLI.localEnvironment
        environment["SUT_HELPERS_SECRET"] = "s3cr3t"
        for (options, expected) in [
            (["--permitted-system-keys", "sut_helpers_.*"], "s3cr3t|[ERROR: Access to PATH is denied]"),
            ([], "[ERROR: Access to SUT_HELPERS_SECRET is denied]|[ERROR: Access to PATH is denied]"),
        ] {
            var answer = ""
            let result = try CLI.run(["serve", "-q", "--port", "0"] + options + [stubs], environment: environment) { process, outURL in
                let deadline = Date().addingTimeInterval(20)
                var url = ""
                while Date() < deadline && url.isEmpty {
                    url = ((try? String(contentsOf: outURL, encoding: .utf8)) ?? "").split(separator: "\n").first.map(String.init) ?? ""
                    usleep(50_000)
                }
                answer = try CLI.output(of: ["curl", "-sS", url + "/v"])
                process.terminate()
            }
            #expect(answer == expected, "\(options): \(result.stderr)")
        }
        let refused = try CLI.run(["serve", "--port", "0", "--permitted-system-keys", "(", stubs])
        #expect(refused.status == 2 && refused.stderr.contains("--permitted-system-keys"), "\(refused.stderr)")
    }

    @Test func anUnknownOptionIsStillAUsageErrorAndRootDirNeedsItsValue() throws {
        let unknown = try CLI.run(["serve", "--root-dri", "x"])
        #expect(unknown.status == 2 && unknown.stderr.contains("--root-dri"), "\(unknown.stderr)")
        let bare = try CLI.run(["serve", "--port", "0", "--root-dir"])
        #expect(bare.status == 2 && bare.stderr.contains("--root-dir"), "\(bare.stderr)")
    }

    /// A scenario's `Given the stubs "dir"` on a root whose mappings hold nothing was an empty server that made
    /// every request unexpected, with no word of why; after the first launch, its stubs never reached the server.
    @Test func theStubsStepNamesAnEmptyRootAndReachesARunningServer() throws {
        let directory = try root()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("empty/mappings"), withIntermediateDirectories: true)
        let feature = """
            Feature: roots
              Scenario: empty
                Given the stubs "empty"
                When I run "true"

              Scenario: after the first launch
                Given the route "GET /x" answers 200 with:
                  \"\"\"
                  x
                  \"\"\"
                When I run "true"
                Given the stubs "root"
                When I run "sh -c 'curl -sS --fail $SUT_MOCK_SERVER_URL/b'"
                Then I see "b from a nested file"
            """
        let path = try CLI.write(feature, "roots.feature", in: directory)
        let result = try CLI.run(["test", path])
        #expect(result.stdout.contains("2 scenarios: 1 passed, 1 could not run"), "\(result.stdout)")
        #expect(result.stdout.contains("no mappings in it: nothing loaded from"), "\(result.stdout)")
    }

    /// Fourth hostile review: a run's end waited 2 s for requests and reported a webhook with a 3 s delay as "still
    /// being sent", never sending it.
    @Test func aRunWaitsForItsWebhooksPastTheRequestSettleTime() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            """
            { "mappings": [
              { "request": { "method": "POST", "url": "/order" }, "response": { "status": 202 },
                "postServeActions": [ { "name": "webhook", "parameters": { "method": "POST",
                  "url": "http://127.0.0.1:{{request.headers.X-Port}}/callback", "delay": { "type": "fixed", "milliseconds": 2500 } } } ] },
              { "request": { "method": "POST", "url": "/callback" }, "response": { "status": 200 } } ] }
            """, "hooks.json", in: directory)
        let result = try CLI.run([
            "--strict", "-p", "0", "--stub", stubs, "sh", "-c",
            #"curl -sS -X POST -H "X-Port: ${SUT_MOCK_SERVER_URL##*:}" "$SUT_MOCK_SERVER_URL/order""#,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1× POST /callback"), "\(result.stderr)")
    }

    /// Attack 1, F11: `--host 127.0.0.1 --bind-address ::1` served on ::1 (the last won); `--https-port` took no value.
    @Test func anOptionAndItsWireMockAliasTogetherAreAUsageError() throws {
        let both = try CLI.run(["serve", "--port", "0", "--host", "127.0.0.1", "--bind-address", "::1"])
        #expect(both.status == 2, "\(both.stderr)")
        #expect(
            both.stderr.contains("--host is given twice: --host 127.0.0.1 (argument 3) and --bind-address ::1 (argument 5)"),
            "\(both.stderr)")
        let journal = try CLI.run(["serve", "--port", "0", "--journal-limit", "5", "--max-request-journal-entries", "6"])
        #expect(journal.status == 2 && journal.stderr.contains("--journal-limit is given twice"), "\(journal.stderr)")
        let bare = try CLI.run(["serve", "--port", "0", "--https-port"])
        #expect(bare.status == 2 && bare.stderr.contains("option '--https-port' needs a value"), "\(bare.stderr)")
    }

    @Test func serveTakesWireMocksDefaultRootAndSaysWhatARootLacks() throws {
        let directory = try root()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inRoot = try CLI.run(
            ["serve", "--port", "0", "--https-port", "1"], cwd: directory.appendingPathComponent("root")
        ) {
            process, outURL in
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline && ((try? String(contentsOf: outURL, encoding: .utf8)) ?? "").isEmpty { usleep(50_000) }
            process.terminate()
        }
        #expect(inRoot.stderr.contains("note: no stubs given: loading ./mappings, as WireMock does"), "\(inRoot.stderr)")
        #expect(inRoot.stderr.contains("serving 2 routes"), "\(inRoot.stderr)")
        #expect(inRoot.stderr.components(separatedBy: "--https-port has no effect").count == 2, "one notice: \(inRoot.stderr)")
        let file = try CLI.run(["serve", "--port", "0", "--root-dir", directory.appendingPathComponent("root/__files/nested/b.txt").path])
        #expect(file.status == 2 && file.stderr.contains("not a directory"), "\(file.stderr)")
    }

    /// R9D-12: a `mappings` that is a dangling link, a file or a FIFO was passed over as "no mappings/" (in the working
    /// directory without a word) and serve started empty. It is a usage error (exit 2) naming what it is, before the
    /// server starts (a serve that started anyway is stopped after 20 s and fails the test).
    @Test func serveRefusesAMappingsThatIsNotADirectory() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("r")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let mappings = root.appendingPathComponent("mappings")
        let kinds: [(String, () throws -> Void)] = [
            ("a dangling link", { try FileManager.default.createSymbolicLink(atPath: mappings.path, withDestinationPath: "/nonexistent") }),
            ("a file", { _ = try CLI.write("", "mappings", in: root) }),
            ("a FIFO", { _ = try CLI.output(of: ["mkfifo", mappings.path]) }),
        ]
        for (kind, make) in kinds {
            try? FileManager.default.removeItem(at: mappings)
            try make()
            for (arguments, cwd) in [(["--root-dir", root.path], directory), ([], root)] {
                let serve = try CLI.run(["serve", "--port", "0"] + arguments, cwd: cwd) { process, _ in
                    #expect(CLI.eventually(20) { !process.isRunning }, "\(kind): serve started")
                    if process.isRunning { process.terminate() }
                }
                #expect(serve.status == 2 && serve.stderr.contains("mappings is \(kind)"), "\(kind) \(arguments): \(serve)")
            }
        }
    }

    /// `check` on a mappings directory whose files all sit in subdirectories (one holding a link back up) checks
    /// them, as serve loads them; it used to say there was nothing there.
    @Test func checkReadsAMappingsDirectoryAsServeDoes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nested = directory.appendingPathComponent("mappings/a")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        _ = try CLI.write(#"{"request": {"url": "/h"}, "response": {"body": "h"}}"#, "h.json", in: nested)
        try FileManager.default.createSymbolicLink(atPath: nested.appendingPathComponent("loop").path, withDestinationPath: "..")
        let result = try CLI.run(["check", directory.appendingPathComponent("mappings").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 route"), "\(result.stdout)")
    }
}
