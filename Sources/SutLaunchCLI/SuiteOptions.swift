/// The specs of `test`'s options that keep a growing suite honest: retries, flaky, quarantine, reruns, redactions.
enum SuiteOptions {
    static let retriesSpec = OptionSpec(
        "--retries", value: "N", help: "run a failed scenario again from scratch up to N times (0-10; tag @retries=N overrides)")
    static let failOnFlakySpec = OptionSpec("--fail-on-flaky", help: "fail the run when a scenario passed only on a retry")
    static let quarantineSpec = OptionSpec(
        "--quarantine", value: "FILE", help: "run the scenarios FILE names (file:line or name per line) apart: they never fail the run")
    static let rerunFailedSpec = OptionSpec(
        "--rerun-failed", value: "FILE", help: "run only what failed in an earlier run (its rerun file, JUnit or Messages)")
    static let dryRunSpec = OptionSpec(
        "--dry-run",
        help: "load, select and resolve every step; launch nothing (exit 1: undefined step; 3: a stub, fixture or program missing)")
    static let writeRerunSpec = OptionSpec(
        "--write-rerun", value: "FILE", help: "write the scenarios that failed as file:line lines (Cucumber rerun)")
    static let redactSpec = OptionSpec(
        "--redact", value: "NAME=REGEX",
        help: "snapshots and output checks see [NAME] where REGEX matches (after [CWD], [HOME], [TMP], [MOCK]...)")
}
