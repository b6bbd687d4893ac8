/// The options of `sut-launch test [options] FEATURES...`, in the order help lists them.
package enum TestOption: CommandOption {
    case tags, jobs, shard, shardTimings, steps, define, flagsIn, https, httpsHost, intercept, stepTimeout, scenarioTimeout, junit,
        junitStrict, report
    case messages, html, runId, updateSnapshots, artifacts, list, name, failFast, dryRun, color, format, allowEmpty, quiet, help
    case recordFrom, into, proxyUnmatched, recordMissing, keepSecrets, captureHeader, recordInsecure, allowHost
    case coverage, coverageThreshold, llvmProfdata
    case retries, failOnFlaky, quarantine, rerunFailed, writeRerun, redact, adminWrites

    /// `--tags` given twice: both hold (and), as Cucumber combines them; `--name` twice: either matches.
    package var repeats: Bool {
        switch self {
        case .tags, .steps, .define, .name, .httpsHost, .intercept, .captureHeader, .redact, .allowHost: true
        case .jobs, .shard, .shardTimings, .flagsIn, .https, .stepTimeout, .scenarioTimeout, .junit, .junitStrict, .report, .messages,
            .html, .runId, .updateSnapshots, .artifacts, .list, .failFast, .dryRun, .color, .format, .allowEmpty, .quiet, .help,
            .recordFrom, .into, .proxyUnmatched, .recordMissing, .keepSecrets, .recordInsecure, .coverage, .coverageThreshold,
            .llvmProfdata, .retries, .failOnFlaky, .quarantine, .rerunFailed, .writeRerun, .adminWrites:
            false
        }
    }

    package var spec: OptionSpec {
        switch self {
        case .recordFrom: RecordingOptions.recordFromSpec
        case .into: RecordingOptions.intoSpec
        case .proxyUnmatched: RecordingOptions.proxyUnmatchedSpec
        case .recordMissing: RecordingOptions.recordMissingSpec
        case .keepSecrets: RecordingOptions.keepSecretsSpec
        case .captureHeader: RecordingOptions.captureHeaderSpec
        case .allowHost: RecordingOptions.allowHostSpec
        case .recordInsecure: RecordingOptions.insecureSpec
        case .coverage: CoverageOptions.directorySpec
        case .adminWrites: AdminWritesOption.spec
        case .coverageThreshold: CoverageOptions.thresholdSpec
        case .llvmProfdata: CoverageOptions.profdataSpec
        case .tags:
            OptionSpec("--tags", value: "EXPR", help: "run scenarios whose tags match: \"@smoke and not @slow\" (given twice: both)")
        case .jobs: OptionSpec("--jobs", short: "-j", value: "N", help: "run N scenarios at once (default 1)")
        case .shard:
            OptionSpec(
                "--shard", value: "K/N|auto", help: "run the K-th of N stable shares; auto[/N]: from the CI's variables (docs/ci.md)")
        case .shardTimings:
            OptionSpec(
                "--shard-timings", value: "FILE", help: "balance shards by the times in an earlier run's JUnit, JSON report or Messages")
        case .steps:
            OptionSpec(
                "--steps", value: "FILE", help: "steps defined as commands (JSON), besides the *.steps.json found next to the features")
        case .define:
            OptionSpec(
                "--define", short: "-D", value: "NAME=VALUE",
                help:
                    "a value for ${NAME} in steps (NAME: letters, digits, _; once each; VALUE may be empty); PROGRAM=path is the default program"
            )
        case .flagsIn:
            OptionSpec(
                "--flags-in", value: "args|env|both", help: "where flags travel (default: both when a scenario sets flags, env otherwise)")
        case .https:
            OptionSpec(
                "--https",
                help: "every scenario's mock server speaks HTTPS with a CA minted for it, trusted by its programs (SSL_CERT_FILE...)")
        case .httpsHost: HTTPSOptions.hostSpec
        case .intercept: HTTPSOptions.interceptSpec
        case .stepTimeout: OptionSpec("--step-timeout", value: "DURATION", help: "how long a waiting step waits (default 2s; 0: none)")
        case .scenarioTimeout:
            OptionSpec(
                "--scenario-timeout", value: "DURATION", help: "how long a scenario may take (default 60s, 0: none; a @timeout= tag wins)")
        case .junit: OptionSpec("--junit", value: "FILE", help: "write JUnit XML")
        case .junitStrict: TestReportOptions.junitStrictSpec
        case .report: OptionSpec("--report", value: "FILE", help: "write a JSON report")
        case .html: TestReportOptions.htmlSpec
        case .runId: TestReportOptions.runIdSpec
        case .messages: TestReportOptions.messagesSpec
        case .updateSnapshots:
            OptionSpec(
                "--update-snapshots", help: "write the snapshots the run compares (also SUT_UPDATE_SNAPSHOTS=1; never on a CI)")
        case .artifacts:
            OptionSpec("--artifacts", value: "DIR", help: "failed scenarios leave outputs, commands, journal and their directory in DIR")
        case .list: OptionSpec("--list", help: "list the selected scenarios, run nothing")
        case .name:
            OptionSpec(
                "--name", value: "REGEX", help: "run scenarios whose name matches (given twice: either; FILE.feature:LINE selects by line)")
        case .failFast: OptionSpec("--fail-fast", help: "start no scenario after the first that fails")
        case .retries: SuiteOptions.retriesSpec
        case .failOnFlaky: SuiteOptions.failOnFlakySpec
        case .quarantine: SuiteOptions.quarantineSpec
        case .rerunFailed: SuiteOptions.rerunFailedSpec
        case .redact: SuiteOptions.redactSpec
        case .writeRerun: SuiteOptions.writeRerunSpec
        case .dryRun: SuiteOptions.dryRunSpec
        case .color:
            OptionSpec(
                "--color", value: "auto|always|never", help: "colour diffs: auto (a terminal without NO_COLOR or TERM=dumb), always, never")
        case .format:
            OptionSpec(
                "--format", value: "plain|github",
                help: "github: failures also as GitHub Actions annotations, and a summary in $GITHUB_STEP_SUMMARY")
        case .allowEmpty: OptionSpec("--allow-empty", help: "pass when no scenario is selected (otherwise exit 5)")
        case .quiet: OptionSpec("--quiet", short: "-q", help: "print failures and the summary only")
        case .help: OptionSpec("--help", short: "-h", help: "show this help")
        }
    }
}
