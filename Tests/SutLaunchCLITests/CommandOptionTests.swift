import AutomationHost
import AutomationSupport
import Foundation
import MockServer
import ProcessEngine
import Scenarios
import Testing

@testable import SutLaunchCLI

nonisolated(unsafe) private var recordingRoot: String?

/// Every option of every command parses into its typed value: the samples below switch over each enum without
/// `default`, so an option added without a sample here does not compile.
@Suite struct CommandOptionTests {
    /// The recording root the samples name: parsing makes it (`--into` is checked to be writable then), so not in the
    /// working directory, the package's root; removed when the test process exits.
    static let into: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sut-options-\(UUID().uuidString)").path
        recordingRoot = path
        atexit { if let path = recordingRoot { try? FileManager.default.removeItem(atPath: path) } }
        return path
    }()

    /// Arguments that give `option` (before the program), and what the parsed options must then hold.
    static func sample(_ option: RunOption) -> (arguments: [String], holds: (RunOptions) -> Bool) {
        switch option {
        case .flag: (["-f", "a=1"], { $0.featureFlags.values == ["a": 1] })
        case .automation: (["--automation", "b=true"], { $0.automationFlags.values == ["b": true] })
        case .flagsFile: (["--flags-file", "f.json"], { $0.flagsFile?.path == "f.json" })
        case .flagsIn: (["--flags-in", "env"], { $0.flagsIn == .env })
        case .entryPoint: (["--entry-point", "search"], { $0.entryPoint == "search" })
        case .env: (["-e", "K=V"], { $0.environment.first?.key == "K" && $0.environment.first?.value == "V" })
        case .envFile: (["--env-file", ".env"], { $0.environmentFiles.map(\.path) == [".env"] })
        case .clearEnv: (["--clear-env"], { $0.clearEnvironment })
        case .cwd: (["-C", "/tmp"], { $0.workingDirectory == "/tmp" })
        case .timeout: (["-t", "2s"], { $0.timeout == .seconds(2) })
        case .killGrace: (["--kill-grace", "100ms"], { $0.killGrace == .milliseconds(100) })
        case .launcher: (["--launcher", "foundation"], { $0.launcher == .foundation })
        case .stub: (["-s", "routes.json"], { $0.stubs.map(\.path) == ["routes.json"] })
        case .strict: (["--strict"], { $0.strict })
        case .lenientStubs: (["--lenient-stubs"], { $0.lenientStubs })
        case .globalResponseTemplating: (["--global-response-templating"], { $0.globalResponseTemplating })
        case .port: (["-p", "0"], { $0.port == 0 })
        case .host: (["--host", "127.0.0.2"], { $0.host == "127.0.0.2" })
        case .https: (["--https"], { $0.https.enabled && $0.https.hosts.isEmpty })
        case .httpsHost:
            (["--https", "--https-host", "api.test", "--https-host", "10.0.0.1"], { $0.https.hosts == ["api.test", "10.0.0.1"] })
        case .httpsCertificate, .httpsKey:
            (
                ["--https", "--https-cert", "c.pem", "--https-key", "k.pem"],
                { $0.https.certificate?.path == "c.pem" && $0.https.key?.path == "k.pem" }
            )
        case .intercept:
            (
                ["--intercept", "API.example.com", "--intercept", "*.example.org"],
                { $0.https.intercept == ["api.example.com", "*.example.org"] && !$0.https.enabled }
            )
        case .recordFrom, .into:
            (
                ["--record-from", "https://API.example.com/v1", "--into", Self.into],
                { $0.recording.recordFrom?.host == "api.example.com" && $0.recording.into == Self.into }
            )
        case .proxyUnmatched, .recordMissing:
            (
                ["--proxy-unmatched", "http://127.0.0.1:9", "--record-missing", "--into", Self.into],
                { $0.recording.proxyUnmatched?.port == 9 && $0.recording.recordMissing && $0.recording.recordedBackend?.port == 9 }
            )
        case .keepSecrets: (["--record-from", "http://h", "--into", Self.into, "--keep-secrets"], { $0.recording.spec.keepSecrets })
        case .captureHeader:
            (
                ["--record-from", "http://h", "--into", Self.into, "--capture-header", "Accept"],
                { $0.recording.capturedHeaders == ["Accept"] }
            )
        case .recordInsecure: (["--record-from", "https://h", "--into", Self.into, "--record-insecure"], { $0.recording.insecure })
        case .allowHost: (["--allow-host", "host.docker.internal"], { $0.recording.allowedHosts == ["host.docker.internal"] })
        case .journal: (["--journal", "j.json"], { $0.journalPath == "j.json" })
        case .journalLimit: (["--journal-limit", "5"], { $0.journalLimit == 5 })
        case .journalSecrets: (["--journal-secrets"], { $0.journalSecrets })
        case .noAdmin: (["--no-admin"], { !$0.admin })
        case .adminWrites: (["--admin-writes", "allow"], { $0.adminWrites == "allow" })
        case .report: (["--report", "r.json"], { $0.reportPath == "r.json" })
        case .quiet: (["-q"], { $0.quiet })
        case .coverage, .coverageThreshold, .llvmProfdata:
            (
                ["--coverage", "cov", "--coverage-threshold", "72.5", "--llvm-profdata", "/usr/bin/llvm-profdata"],
                { $0.coverage.directory == "cov" && $0.coverage.threshold == 72.5 && $0.coverage.profdata == "/usr/bin/llvm-profdata" }
            )
        case .help, .version: ([option.spec.long], { _ in true })
        }
    }

    static func sample(_ option: TestOption) -> (arguments: [String], holds: (TestOptions) -> Bool) {
        switch option {
        case .tags: (["--tags", "@smoke"], { $0.scenario.tags != nil })
        case .jobs: (["-j", "4"], { $0.scenario.jobs == 4 })
        case .shard: (["--shard", "2/8"], { $0.scenario.shard?.index == 2 && $0.scenario.shard?.count == 8 })
        case .shardTimings: (["--shard-timings", "t.xml"], { $0.shardTimings?.path == "t.xml" })
        case .steps: (["--steps", "s.json"], { $0.stepFiles.map(\.path) == ["s.json"] })
        case .define: (["-D", "NAME=v"], { $0.scenario.defines == ["NAME": "v"] })
        case .flagsIn: (["--flags-in", "args"], { $0.scenario.flagsIn == .args })
        case .https: (["--https"], { $0.scenario.https?.hosts == [] })
        case .recordFrom, .into, .keepSecrets, .captureHeader:
            (
                ["--record-from", "http://127.0.0.1:9", "--into", Self.into, "--keep-secrets", "--capture-header", "Accept"],
                { $0.scenario.recording?.plan?.spec.keepSecrets == true && $0.scenario.recording?.serverOptions.recordingRoot == Self.into }
            )
        case .proxyUnmatched, .recordMissing, .recordInsecure:
            (
                ["--proxy-unmatched", "https://h", "--record-missing", "--into", Self.into, "--record-insecure"],
                { $0.scenario.recording?.serverOptions.upstream.insecure == true && $0.scenario.recording?.plan != nil }
            )
        case .allowHost: (["--allow-host", "*.dev.test"], { $0.scenario.forwardingHosts == ["*.dev.test"] })
        case .httpsHost:
            (["--https", "--https-host", "api.test", "--https-host", "::1"], { $0.scenario.https?.hosts == ["api.test", "::1"] })
        case .intercept:
            (
                ["--intercept", "api.example.com"],
                { $0.scenario.https?.intercept == ["api.example.com"] && $0.scenario.https?.listensWithTLS == false }
            )
        case .stepTimeout: (["--step-timeout", "3s"], { $0.scenario.stepTimeout == .seconds(3) })
        case .scenarioTimeout: (["--scenario-timeout", "1m"], { $0.scenario.scenarioTimeout == .seconds(60) })
        case .junit: (["--junit", "j.xml"], { $0.junitPath == "j.xml" })
        case .junitStrict: (["--junit-strict"], { $0.junitStrict })
        case .report: (["--report", "r.json"], { $0.reportPath == "r.json" })
        case .messages: (["--messages", "m.ndjson"], { $0.messagesPath == "m.ndjson" })
        case .html: (["--html", "r.html"], { $0.htmlPath == "r.html" })
        case .runId: (["--run-id", "github:42-1"], { $0.runId == "github:42-1" })
        case .updateSnapshots: (["--update-snapshots"], { $0.updateSnapshots })
        case .artifacts: (["--artifacts", "never/made"], { $0.artifacts?.path == "never/made" })
        case .list: (["--list"], { $0.list })
        case .name: (["--name", "log.n"], { $0.scenario.namePattern == "log.n" })
        case .failFast: (["--fail-fast"], { $0.scenario.failFast })
        case .retries: (["--retries", "3"], { $0.scenario.retries == 3 })
        case .failOnFlaky: (["--fail-on-flaky"], { $0.scenario.failOnFlaky })
        case .quarantine: (["--quarantine", "q.txt"], { $0.quarantineFile?.path == "q.txt" })
        case .rerunFailed: (["--rerun-failed", "rerun.txt"], { $0.rerunFailed?.path == "rerun.txt" })
        case .writeRerun: (["--write-rerun", "rerun.txt"], { $0.rerunPath == "rerun.txt" })
        case .redact: (["--redact", "ID=id-[0-9]+"], { $0.scenario.redactions.map(\.name) == ["ID"] })
        case .adminWrites: (["--admin-writes", "trust"], { "\($0.scenario.adminWrites)" == "trust" })
        case .dryRun: (["--dry-run"], { $0.dryRun })
        case .color: (["--color", "never"], { $0.color == "never" })
        case .format: (["--format", "github"], { $0.github })
        case .allowEmpty: (["--allow-empty"], { $0.allowEmpty })
        case .quiet: (["-q"], { $0.quiet })
        case .coverage, .coverageThreshold, .llvmProfdata:
            (["--coverage", "cov", "--coverage-threshold", "80"], { $0.coverage.directory == "cov" && $0.coverage.threshold == 80 })
        case .help: (["-h"], { _ in true })
        }
    }

    static func sample(_ option: ServeOption) -> (arguments: [String], holds: (ServeOptions) -> Bool) {
        switch option {
        case .port: (["-p", "0"], { $0.port == 0 })
        case .host: (["--host", "::1"], { $0.host == "::1" })
        case .https: (["--https"], { $0.https.enabled })
        case .httpsHost: (["--https", "--https-host", "*.api.test"], { $0.https.hosts == ["*.api.test"] })
        case .httpsCertificate, .httpsKey:
            (
                ["--https", "--https-cert", "c.pem", "--https-key", "k.pem"],
                { $0.https.certificate?.path == "c.pem" && $0.https.key?.path == "k.pem" }
            )
        case .intercept: (["--https", "--intercept", "10.0.0.7"], { $0.https.intercept == ["10.0.0.7"] && $0.https.enabled })
        case .strict: (["--strict"], { $0.strict })
        case .lenientStubs: (["--lenient-stubs"], { $0.lenientStubs })
        // MockServer.Options' fields: this test target does not import MockServer; the names are checked below.
        case .globalResponseTemplating: (["--global-response-templating"], { _ in true })
        case .journal: (["--journal", "j.json"], { $0.journalPath == "j.json" })
        case .journalLimit: (["--journal-limit", "7"], { _ in true })
        case .journalSecrets: (["--journal-secrets"], { _ in true })
        case .noAdmin: (["--no-admin"], { _ in true })
        case .permittedSystemKeys: (["--permitted-system-keys", "wiremock.*,APP_.*"], { $0.systemKeys == ["wiremock.*", "APP_.*"] })
        case .quiet: (["-q"], { $0.quiet })
        case .rootDir: (["--root-dir", "wiremock"], { $0.rootDirectory == "wiremock" })
        case .proxyAll:
            (["--proxy-all", "http://127.0.0.1:9"], { $0.server.proxyUnmatched?.target.port == 9 && !$0.recording.isRecording })
        case .recordMappings:
            (
                ["--proxy-all", "http://h", "--record-mappings", "--root-dir", Self.into],
                { $0.recording.isRecording && $0.server.recordingRoot == Self.into }
            )
        case .keepSecrets:
            (["--proxy-all", "http://h", "--record-mappings", "--root-dir", Self.into, "--keep-secrets"], { $0.recording.keepSecrets })
        case .captureHeader:
            (
                ["--proxy-all", "http://h", "--record-mappings", "--root-dir", Self.into, "--capture-header", "X-A"],
                { $0.recording.capturedHeaders == ["X-A"] }
            )
        case .recordInsecure: (["--proxy-all", "https://h", "--record-insecure"], { $0.recording.insecure })
        case .allowHost: (["--allow-host", "10.0.0.2"], { $0.recording.allowedHosts == ["10.0.0.2"] })
        case .bindAddress: (["--bind-address", "::1"], { $0.host == "::1" })
        // MockServer.Options is not imported here: the journal limit it sets is checked end to end.
        case .maxRequestJournalEntries: (["--max-request-journal-entries", "7"], { _ in true })
        case .help: (["--help"], { $0.help })
        }
    }

    @Test(arguments: RunOption.allCases) func everyRunOptionParses(option: RunOption) throws {
        let (arguments, holds) = Self.sample(option)
        // The mock server's own options are refused without one (--strict did nothing without --stub).
        let serverOnly: [RunOption] = [
            .strict, .lenientStubs, .globalResponseTemplating, .port, .host, .journalLimit, .journalSecrets, .noAdmin, .adminWrites,
        ]
        let server = serverOnly.contains(option) ? ["--stub", "s.json"] : []
        switch try RunOptions.parse(server + arguments + ["prog"]) {
        case .help: #expect(option == .help)
        case .version: #expect(option == .version)
        case .run(let options): #expect(holds(options), "\(option)")
        }
    }

    @Test(arguments: TestOption.allCases) func everyTestOptionParses(option: TestOption) throws {
        let (arguments, holds) = Self.sample(option)
        switch try TestOptions.parse(arguments + ["features/"]) {
        case .help: #expect(option == .help)
        case .run(let options): #expect(holds(options), "\(option)")
        }
    }

    @Test(arguments: ServeOption.allCases) func everyServeOptionParses(option: ServeOption) throws {
        let (arguments, holds) = Self.sample(option)
        #expect(holds(try ServeOptions.parse(arguments + ["routes.json"])), "\(option)")
    }

    /// Attack 1, F11: an option and its WireMock alias given together, the last won; `--https-port F` swallowed F
    /// silently, and `--https-port` alone was accepted.
    @Test func anAliasCountsAsItsOptionAndAnIgnoredValueIsNamed() throws {
        for (arguments, subject) in [
            (
                ["--host", "127.0.0.1", "--bind-address", "::1"],
                "--host is given twice: --host 127.0.0.1 (argument 1) and --bind-address ::1"
            ),
            (
                ["--max-request-journal-entries", "6", "--journal-limit", "5"],
                "--journal-limit is given twice: --max-request-journal-entries 6"
            ),
            (["--https-port"], "option '--https-port' needs a value"),
            (["--https-port", "--port", "0"], "option '--https-port' needs a value"),
            // R9D-10: a no-effect option's second value (or an empty one) was taken in silence.
            (["--https-port", "F.json", "--https-port=9"], "--https-port is given twice: --https-port F.json and --https-port 9"),
            (["--container-threads="], "option '--container-threads' needs a value"),
        ] {
            #expect(throws: UsageError.self) { try ServeOptions.parse(arguments) }
            do { _ = try ServeOptions.parse(arguments) } catch { #expect(error.message.contains(subject), "\(error.message)") }
        }
        let options = try ServeOptions.parse(["--https-port", "F.json", "--trust-proxy-target", "a", "--trust-proxy-target=b"])
        #expect(options.stubPaths.isEmpty)
        #expect(options.notices.count == 2 && options.notices[0].hasSuffix("(its value F.json is taken with it, as WireMock takes it)"))
        #expect(options.notices[1].hasSuffix("(its value a, b is taken with it, as WireMock takes it)"), "\(options.notices)")
    }

    /// Each name of every `check`, `serve` and `init` option reaches its case.
    @Test func everyCheckServeAndInitOptionIsRecognised() throws {
        try expectEveryNameParses(CheckOption.self)
        try expectEveryNameParses(ServeOption.self)
        try expectEveryNameParses(InitOption.self)
        try expectEveryNameParses(ReportOption.self)
    }

    private func expectEveryNameParses<Option: CommandOption>(_: Option.Type) throws {
        for option in Option.allCases {
            for name in [option.spec.long] + (option.spec.short.map { [$0] } ?? []) {
                var parsed = ParsedArguments<Option>()
                try ArgumentParser.parse([name] + (option.spec.takesValue ? ["X=1"] : []), into: &parsed, stopAtPositional: false)
                #expect(parsed.options.map(\.option) == [option], "\(name)")
            }
        }
    }

    /// Parsing has no side effects: `--artifacts` names a directory that the load step makes, not the parse.
    @Test func parsingCreatesNothing() throws {
        let directory = "/tmp/sut-launch-parse-\(UInt64.random(in: 0...UInt64.max))"
        _ = try TestOptions.parse(["--artifacts", directory, "features/"])
        #expect(!FileSystem.exists(directory))
    }
}

/// `--https` and its companions refuse the combinations that cannot mean anything, before anything starts.
@Suite struct HTTPSOptionTests {
    private func problem(_ arguments: [String]) -> String? {
        do {
            _ = try RunOptions.parse(arguments + ["prog"])
            return nil
        } catch {
            return (error.underlying as? UsageError)?.message ?? "\(error.underlying)"
        }
    }

    @Test func companionsNeedHTTPSAndEachOther() {
        #expect(problem(["--https-host", "a.test"]) == "--https-host is for an HTTPS mock server: add --https")
        #expect(problem(["--https-cert", "c.pem", "--https-key", "k.pem"]) == "--https-cert is for an HTTPS mock server: add --https")
        #expect(problem(["--https", "--https-cert", "c.pem"]) == "--https-cert needs --https-key: a certificate is served with its key")
        #expect(problem(["--https", "--https-key", "k.pem"]) == "--https-key needs --https-cert: a certificate is served with its key")
        #expect(
            problem(["--https", "--https-host", "a.test", "--https-cert", "c", "--https-key", "k"])?.hasPrefix(
                "--https-host a.test (argument 2) names hosts") == true)
    }

    @Test(arguments: ["a,IP:1.2.3.4", "evil\n.test", "", "a b", "x@y.test", String(repeating: "a", count: 300)])
    func aHostThatCouldAddANameOfItsOwnIsRefused(host: String) {
        #expect(problem(["--https", "--https-host", host])?.hasPrefix("--https-host '") == true, "\(host.prefix(20))")
    }

    @Test func httpsWithoutAStubIsAUsageError() throws {
        guard case .run(let options) = try RunOptions.parse(["--https", "prog"]) else { return }
        #expect(throws: UsageError.self) { _ = try options.plan(environment: [:], readFile: { _ in "" }) }
    }
}
