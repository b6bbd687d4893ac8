/// The words that pick a subcommand in first place, in the order typo suggestions try them.
package enum Subcommand: String, CaseIterable, Sendable {
    case serve, record, check, test, report, `init`, help, completions, manpage
}

/// The topics of `sut-launch help TOPIC`.
package enum HelpTopic: String, CaseIterable, Sendable {
    case serve, check, test, report, `init`, steps, record, coverage, admin, completions, manpage, help

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
        case .completions: "USAGE:\n  sut-launch completions bash|zsh|fish\n\nPrints the completion script for that shell.\n"
        case .manpage: "USAGE:\n  sut-launch manpage\n\nPrints the man page (roff), generated from the option tables.\n"
        case .help: "USAGE:\n  sut-launch help [\(Self.allCases.map(\.rawValue).filter { $0 != "help" }.joined(separator: "|"))]\n"
        }
    }
}
