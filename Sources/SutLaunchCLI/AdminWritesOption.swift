import MockServer
import ProcessEngine

/// `--admin-writes refuse|allow|trust` (the launcher and `test`): what the program under test may change through its
/// run's mock server's admin API. Listed by `sut-launch help admin`.
enum AdminWritesOption {
    static let spec = OptionSpec(
        "--admin-writes", value: "refuse|allow|trust",
        help: "the program's /__admin writes: refuse (default), allow (its mappings' answers unexpected), trust",
        topic: "admin")

    /// The mode `option` names (its value, validated: the options keep it as text).
    static func mode<Option>(_ option: ParsedOption<Option>) throws(UsageError) -> String {
        try ChoiceOptions.word(option, in: MockServer.AdminWrites.allCases.filter { $0 != .open }.map(\.rawValue))
    }

    /// The mode a validated value names; `refuse` for none.
    static func mode(named name: String?) -> MockServer.AdminWrites {
        name.flatMap(MockServer.AdminWrites.init(rawValue:)) ?? .refuse
    }
}

extension HelpText {
    /// `help admin`: what the program under test may do with its run's mock server's admin API.
    package static var admin: String {
        """
        USAGE:
          sut-launch --stub STUBS --admin-writes refuse|allow|trust [options] PROGRAM [ARGS...]
          sut-launch test --admin-writes refuse|allow|trust [options] FEATURES...

        A run judges its program by what its own stubs answered. The program may read the run's mock server's /__admin
        (GET, and the searches requests/count, requests/find, near-misses, mappings/find-by-metadata), but every write
        (mappings added, put, imported, deleted, saved or reset, resets, scenario states, settings, recordings) is refused
        with 403 and counted as unexpected: a mapping it added would answer what the run judges. allow answers the
        writes, and each request a mapping the program added answered is unexpected ("answered by a mapping the program
        added": --strict fails on it); trust counts those answers as calls (still marked in the journal and summary).
        sut-launch serve answers every write: setting it up through /__admin is what it is for.

        OPTIONS:

        """ + RunOption.helpLines(topic: "admin")
    }
}
