/// The options of the main form, `sut-launch [options] PROGRAM [ARGS...]`, in the order help lists them.
package enum RunOption: CommandOption {
    case flag, automation, flagsFile, flagsIn, entryPoint, env, envFile, clearEnv, cwd, timeout, killGrace, launcher
    case stub, strict, lenientStubs, globalResponseTemplating, port, host, https, httpsHost, httpsCertificate, httpsKey, intercept
    case recordFrom, into, proxyUnmatched, recordMissing, keepSecrets, captureHeader, recordInsecure, allowHost
    case journal, journalLimit, journalSecrets, noAdmin, adminWrites
    case report, quiet, help, version
    case coverage, coverageThreshold, llvmProfdata

    package var repeats: Bool {
        switch self {
        case .flag, .automation, .env, .envFile, .stub, .httpsHost, .intercept, .captureHeader, .allowHost: true
        case .https, .httpsCertificate, .httpsKey, .flagsFile, .flagsIn, .entryPoint, .clearEnv, .cwd, .timeout, .killGrace, .launcher,
            .strict, .lenientStubs,
            .globalResponseTemplating, .port, .host, .recordFrom, .into, .proxyUnmatched, .recordMissing, .keepSecrets, .recordInsecure,
            .journal, .journalLimit, .journalSecrets, .noAdmin, .adminWrites, .report, .quiet, .help,
            .version, .coverage, .coverageThreshold, .llvmProfdata:
            false
        }
    }

    package var spec: OptionSpec {
        switch self {
        case .flag:
            OptionSpec("--flag", short: "-f", value: "key=value", help: "feature flag, sent as EPHEMERAL (key:=JSON for any JSON value)")
        case .automation:
            OptionSpec("--automation", short: "-a", value: "key=value", help: "automation flag, sent as AUTOMATION (key:=JSON likewise)")
        case .flagsFile:
            OptionSpec(
                "--flags-file", value: "FILE",
                help: "JSON file {\"featureFlags\":{}, \"automationFlags\":{}, \"env\":{}}; command-line flags override it")
        case .flagsIn:
            OptionSpec(
                "--flags-in", value: "args|env|both", help: "where flags travel: launch arguments, environment, or both (default both)")
        case .entryPoint:
            OptionSpec("--entry-point", value: "NAME", help: "start the program at a named entry point (AUTOMATION entryPoint)")
        case .env: OptionSpec("--env", short: "-e", value: "KEY=VALUE", help: "set an environment variable for the program")
        case .envFile:
            OptionSpec("--env-file", value: "FILE", help: "read variables from a dotenv file (KEY=value, export, quotes, # comments)")
        case .clearEnv: OptionSpec("--clear-env", help: "start from an empty environment (PATH and HOME kept) plus what is given")
        case .cwd: OptionSpec("--cwd", short: "-C", value: "DIR", help: "run the program in DIR")
        case .timeout:
            OptionSpec(
                "--timeout", short: "-t", value: "DURATION",
                help: "stop the program after DURATION (500ms, 30s, 2m; 0: no timeout) and exit 124")
        case .killGrace: OptionSpec("--kill-grace", value: "DURATION", help: "time between SIGTERM and SIGKILL when stopping (default 5s)")
        case .launcher:
            OptionSpec(
                "--launcher", value: "spawn|foundation",
                help: "how the program is started (default spawn, its own; foundation: Foundation.Process)")
        case .stub:
            OptionSpec(
                "--stub", short: "-s", value: "FILE|DIR",
                help: "start a mock server with these stubs (native, WireMock mapping or root dir); repeatable")
        case .strict: OptionSpec("--strict", help: "fail the run (exit 4) on any request no stub matched")
        case .lenientStubs:
            OptionSpec("--lenient-stubs", help: "skip mappings and stub files that cannot be loaded (one warning each) instead of refusing")
        case .globalResponseTemplating:
            OptionSpec(
                "--global-response-templating", help: "template every WireMock mapping's response, as WireMock's option of that name")
        case .port: OptionSpec("--port", short: "-p", value: "PORT", help: "mock server port (default 8080; 0 picks a free port)")
        case .host: OptionSpec("--host", value: "ADDRESS", help: "mock server address (default 127.0.0.1)")
        case .https: HTTPSOptions.httpsSpec
        case .httpsHost: HTTPSOptions.hostSpec
        case .httpsCertificate: HTTPSOptions.certificateSpec
        case .httpsKey: HTTPSOptions.keySpec
        case .intercept: HTTPSOptions.interceptSpec
        case .recordFrom: RecordingOptions.recordFromSpec
        case .into: RecordingOptions.intoSpec
        case .proxyUnmatched: RecordingOptions.proxyUnmatchedSpec
        case .recordMissing: RecordingOptions.recordMissingSpec
        case .keepSecrets: RecordingOptions.keepSecretsSpec
        case .captureHeader: RecordingOptions.captureHeaderSpec
        case .allowHost: RecordingOptions.allowHostSpec
        case .recordInsecure: RecordingOptions.insecureSpec
        case .journal: OptionSpec("--journal", value: "FILE", help: "write every request the mock server received, as JSON")
        case .journalLimit:
            OptionSpec("--journal-limit", value: "N", help: "requests kept in the journal (default 10000; the oldest go first)")
        case .journalSecrets:
            OptionSpec(
                "--journal-secrets", help: "keep Authorization, Cookie and Proxy-Authorization values in the journal (redacted by default)")
        case .noAdmin: OptionSpec("--no-admin", help: "turn the mock server's /__admin API off")
        case .adminWrites: AdminWritesOption.spec
        case .report:
            OptionSpec(
                "--report", value: "FILE", help: "write a JSON report: argv, env keys, flags, exit code, signal, timing, output bytes")
        case .coverage: CoverageOptions.directorySpec
        case .coverageThreshold: CoverageOptions.thresholdSpec
        case .llvmProfdata: CoverageOptions.profdataSpec
        case .quiet: OptionSpec("--quiet", short: "-q", help: "print nothing of sut-launch's own but errors")
        case .help: OptionSpec("--help", short: "-h", help: "show this help")
        case .version: OptionSpec("--version", help: "show the version")
        }
    }
}
