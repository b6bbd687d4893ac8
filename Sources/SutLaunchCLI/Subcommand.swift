/// The words that pick a subcommand in first place, in the order typo suggestions try them.
package enum Subcommand: String, CaseIterable, Sendable {
    case serve, record, check, test, report, `init`, help, completions, manpage
}

/// The topics of `sut-launch help TOPIC`.
package enum HelpTopic: String, CaseIterable, Sendable {
    case serve, check, test, report, `init`, steps, record, coverage, admin, help

    /// The text `sut-launch help TOPIC` prints.
    var text: String {
        switch self {
        case .serve: ServeCommand.help
        case .check: CheckCommand.help
        case .test: TestCommand.help
        case .report: ReportCommand.help
        case .`init`: InitCommand.help
        case .steps: TestCommand.steps
        case .record: HelpText.record
        case .coverage: HelpText.coverage
        case .admin: HelpText.admin
        case .help: "USAGE:\n  sut-launch help [serve|check|test|report|init|steps|record|coverage|admin]\n"
        }
    }
}
