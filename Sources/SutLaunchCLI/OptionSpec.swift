import AutomationSupport

/// One command-line option: its names, whether it takes a value, and its help line.
package struct OptionSpec: Sendable {
    /// The long name, `--flag`.
    package var long: String
    /// The short name, `-f`, if any.
    package var short: String?
    /// The value's placeholder in help (`key=value`); nil for a switch.
    package var valueName: String?
    package var help: String
    /// The help topic that lists the option (`sut-launch help record`); nil: the command's own help does. Completions
    /// and the man page list every option.
    package var topic: String?

    package init(_ long: String, short: String? = nil, value valueName: String? = nil, help: String, topic: String? = nil) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.topic = topic
    }

    var takesValue: Bool { valueName != nil }

    /// The OPTIONS part of a help text: `  -f, --flag key=value` padded to a column, then the help line.
    /// This option without its topic: listed in the help of a command that takes it, not only in its topic's.
    var listedInEveryHelp: OptionSpec {
        var spec = self
        spec.topic = nil
        return spec
    }

    static func helpLines(_ options: [OptionSpec]) -> String {
        options.filter { $0.topic == nil }.map { option in
            var names = (option.short.map { "\($0), " } ?? "    ") + option.long
            if let value = option.valueName { names += " \(value)" }
            let padded = names.count < 30 ? names + String(repeating: " ", count: 30 - names.count) : names + "  "
            return "  \(padded)\(option.help)\n"
        }.joined()
    }
}

/// A command's options as an enum: each case carries its spec, so parsing, help, completions and the man page
/// read one table, and a command's `switch` over its cases is checked for completeness by the compiler.
package protocol CommandOption: CaseIterable, Hashable, Sendable where AllCases == [Self] {
    /// Names, value placeholder and help line.
    var spec: OptionSpec { get }
    /// True for an option that may be given more than once (`--flag`, `--stub`, `--tags`…). Any other option that
    /// takes a value, given twice, is a usage error naming both (the last one silently won: `--timeout 1s --timeout
    /// 0` ran with no timeout, `--shard 1/2 --shard 2/2` ran one shard).
    var repeats: Bool { get }
    /// The option this one is another name of (WireMock's `--bind-address` for `--host`): the two given together are
    /// the same option given twice.
    var aliasOf: Self? { get }
}

extension CommandOption {
    package var aliasOf: Self? { nil }
    /// Every case's spec, in declaration order (the order help lists them).
    static var specs: [OptionSpec] { allCases.map(\.spec) }
    /// The OPTIONS part of the command's help.
    static var helpLines: String { OptionSpec.helpLines(specs) }
    /// The options a topic's help lists (`sut-launch help record`).
    static func helpLines(topic: String) -> String {
        OptionSpec.helpLines(
            specs.filter { $0.topic == topic }.map {
                var spec = $0
                spec.topic = nil
                return spec
            })
    }
    /// The case whose long name is `long`.
    static func named(_ long: String) -> Self? { allCases.first { $0.spec.long == long } }
}

/// One option occurrence in the order given: which option, its value, and where it stood (1-based argument index).
package struct ParsedOption<Option: CommandOption>: Sendable, Hashable {
    package var option: Option
    package var value: String?
    package var index: Int
    /// How the user wrote it (`-f`, `--flag`), for messages.
    package var spelling: String

    /// The option's long name.
    package var long: String { option.spec.long }

    /// "--flag x=1 (argument 3)".
    package var origin: String {
        value.map { "\(spelling) \($0) (argument \(index))" } ?? "\(spelling) (argument \(index))"
    }

    /// `-D NAME=… (argument 3)`: where a `NAME=VALUE` option was given, its value left out (`-D` and `-e` values may be
    /// secrets, and errors reach stderr and `--report`).
    package func originHidingValue(name: String) -> String {
        "\(spelling) \(name.escapingControlCharacters())=… (argument \(index))"
    }
}

/// The result of parsing: the options in order, and the positionals (the program and its arguments).
package struct ParsedArguments<Option: CommandOption>: Sendable {
    package var options: [ParsedOption<Option>] = []
    package var positionals: [String] = []
    /// True when `--` ended the options: the first positional is then a program name whatever it spells.
    package var endedByDoubleDash = false

    package func values(_ option: Option) -> [ParsedOption<Option>] { options.filter { $0.option == option } }
    package func has(_ option: Option) -> Bool { options.contains { $0.option == option } }
    /// The last value given for an option (a later one overrides an earlier one, as in most tools).
    package func last(_ option: Option) -> ParsedOption<Option>? { options.last { $0.option == option } }
}
