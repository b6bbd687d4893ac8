/// One command-line option: its names, whether it takes a value, and its help line.
package struct OptionSpec: Sendable {
    /// The long name, `--flag`.
    package var long: String
    /// The short name, `-f`, if any.
    package var short: String?
    /// The value's placeholder in help (`key=value`); nil for a switch.
    package var valueName: String?
    package var help: String

    package init(_ long: String, short: String? = nil, value valueName: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
    }

    var takesValue: Bool { valueName != nil }

    /// The OPTIONS part of a help text: `  -f, --flag key=value` padded to a column, then the help line.
    static func helpLines(_ options: [OptionSpec]) -> String {
        options.map { option in
            var names = (option.short.map { "\($0), " } ?? "    ") + option.long
            if let value = option.valueName { names += " \(value)" }
            let padded = names.count < 30 ? names + String(repeating: " ", count: 30 - names.count) : names + "  "
            return "  \(padded)\(option.help)\n"
        }.joined()
    }
}

/// One option occurrence in the order given: which option, its value, and where it stood (1-based argument index).
package struct ParsedOption: Sendable, Hashable {
    package var long: String
    package var value: String?
    package var index: Int
    /// How the user wrote it (`-f`, `--flag`), for messages.
    package var spelling: String

    /// "--flag x=1 (argument 3)".
    package var origin: String {
        value.map { "\(spelling) \($0) (argument \(index))" } ?? "\(spelling) (argument \(index))"
    }
}

/// The result of parsing: the options in order, and the positionals (the program and its arguments).
package struct ParsedArguments: Sendable {
    package var options: [ParsedOption] = []
    package var positionals: [String] = []
    /// True when `--` ended the options: the first positional is then a program name whatever it spells.
    package var endedByDoubleDash = false

    package func values(_ long: String) -> [ParsedOption] { options.filter { $0.long == long } }
    package func has(_ long: String) -> Bool { options.contains { $0.long == long } }
    /// The last value given for an option (a later one overrides an earlier one, as in most tools).
    package func last(_ long: String) -> ParsedOption? { options.last { $0.long == long } }
}
