/// `test`'s Messages and the reports rendered from them: the HTML page, and what identifies the run for `report`.
enum TestReportOptions {
    static let messagesSpec = OptionSpec(
        "--messages", value: "FILE", help: "write Cucumber Messages (NDJSON: documents, pickles, results) for report tools")
    static let junitStrictSpec = OptionSpec(
        "--junit-strict", help: "JUnit without file/line attributes: valid against the strict Jenkins/Ant schema")
    static let htmlSpec = OptionSpec("--html", value: "FILE", help: "write one self-contained HTML report (from the run's Messages)")
    static let runIdSpec = OptionSpec(
        "--run-id", value: "ID", help: "what identifies the run for `sut-launch report` to merge shards (default: the CI's run id)")
}
