package import ProcessEngine

/// A small getopt-style parser: `--name value`, `--name=value`, `-n value`, `-nvalue`, `--` ends options,
/// and the first positional ends options too (everything after the program belongs to the program).
package enum ArgumentParser {
    /// Parses `arguments` (without argv[0]) into `result`. A wrong token does not stop the reading: it is
    /// skipped and the rest read on, as a compiler recovers, so `result` holds every option that could be read
    /// (a command still writes a `--report` given after the mistake); then the first mistake is thrown.
    /// - Parameter stopAtPositional: treat everything from the first positional on as positionals.
    /// - Throws: ``UsageError`` naming the first bad token, with a suggestion for a typo.
    package static func parse<Option: CommandOption>(
        _ arguments: [String], into result: inout ParsedArguments<Option>, stopAtPositional: Bool = true
    ) throws(UsageError) {
        var firstMistake: UsageError?
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            let position = index + 1
            index += 1
            if token == "--" {
                result.positionals.append(contentsOf: arguments[index...])
                result.endedByDoubleDash = true
                break
            }
            do throws(UsageError) {
                if token.hasPrefix("--") {
                    result.options.append(try long(token, position: position, arguments: arguments, index: &index))
                    continue
                }
                if token.hasPrefix("-"), token.count > 2, let option = Option.named("-" + token.prefix { $0 != "=" }) {
                    throw UsageError(.singleDashLongOption(String(token.prefix { $0 != "=" }), long: option.spec.long))
                }
                if token.hasPrefix("-"), token.count > 1 {
                    result.options += try shorts(token, position: position, arguments: arguments, index: &index)
                    continue
                }
            } catch {
                if firstMistake == nil { firstMistake = error }
                // An unknown `--name`, `-Z` (`-F a=1`, `-qZ`, a typo of `-f`) or `-timeout` followed by a word and more
                // (`--timout 5s --report r.json prog`): the word is most likely its value, not the program. Read on past
                // it, so a `--report`/`--junit` later on the line still gets the usage error (it was left unwritten, an
                // earlier run's passing report standing as this run's; R8C-5, R9C-3 for the short forms). A last word
                // (`--bogus prog`) stays the program the report names.
                if mayTakeTheNextWord(token, Option.self), index + 1 < arguments.count, !arguments[index].hasPrefix("-") {
                    index += 1
                }
                continue
            }
            if stopAtPositional {
                result.positionals.append(contentsOf: arguments[(index - 1)...])
                break
            }
            result.positionals.append(token)
        }
        if let firstMistake { throw firstMistake }
        try checkRepeats(result.options)
        try refuseNotUTF8(result.options)
    }

    /// True when `token`, refused, may have been meant with the next word as its value: an unknown `--name`, a bundle
    /// of short letters (refused only for an unknown letter, which may take a value), a known long option written with
    /// one dash that takes a value. A token with `=` carries its value itself.
    private static func mayTakeTheNextWord<Option: CommandOption>(_ token: String, _: Option.Type) -> Bool {
        guard !token.contains("=") else { return false }
        if token.hasPrefix("--") { return Option.named(token) == nil }
        if let option = Option.named("-" + token) { return option.spec.valueName != nil }
        return true
    }

    /// Options whose value may hold bytes that are not UTF-8: `--env` passes them on as they are; `--flag` and
    /// `--automation` refuse them with a message of their own.
    static let bytesAllowed: Set = ["--env", "--flag", "--automation"]

    /// A value that is not UTF-8 (a path, mostly) would be used as its U+FFFD text: another name, "no such file" for
    /// one that exists, a report written beside the name asked for. Refused by name instead.
    private static func refuseNotUTF8<Option: CommandOption>(_ options: [ParsedOption<Option>]) throws(UsageError) {
        for option in options where !bytesAllowed.contains(option.option.spec.long) {
            guard let value = option.value, let bytes = OriginalBytes.of(value) else { continue }
            throw UsageError(.notUTF8Path(option.spelling, shown: OriginalBytes.shown(bytes), index: option.index))
        }
    }

    /// A value option that does not repeat, given twice (under its own name or an alias): a usage error naming both
    /// occurrences.
    private static func checkRepeats<Option: CommandOption>(_ options: [ParsedOption<Option>]) throws(UsageError) {
        var first: [Option: ParsedOption<Option>] = [:]
        for option in options where option.option.spec.takesValue && !option.option.repeats {
            let key = option.option.aliasOf ?? option.option
            if let earlier = first[key] {
                throw UsageError(.givenTwice(key.spec.long, first: earlier.origin, second: option.origin))
            }
            first[key] = option
        }
    }

    /// `--name`, `--name=value` or `--name value`.
    private static func long<Option: CommandOption>(
        _ token: String, position: Int, arguments: [String], index: inout Int
    ) throws(UsageError) -> ParsedOption<Option> {
        var name = token
        var inlineValue: String?
        if let equals = token.firstIndex(of: "=") {
            name = String(token[..<equals])
            inlineValue = String(token[token.index(after: equals)...])
        }
        guard let option = Option.named(name) else { throw UsageError(.unknownOption(name, known: Option.specs.map(\.long))) }
        guard let placeholder = option.spec.valueName else {
            if inlineValue != nil { throw UsageError(.takesNoValue(name)) }
            return ParsedOption(option: option, value: nil, index: position, spelling: name)
        }
        if let inlineValue { return ParsedOption(option: option, value: inlineValue, index: position, spelling: name) }
        guard index < arguments.count else { throw UsageError(.missingValue(name, placeholder: placeholder)) }
        try refuseOptionAsValue(arguments[index], after: name, placeholder: placeholder, Option.self)
        index += 1
        return ParsedOption(option: option, value: arguments[index - 1], index: position, spelling: name)
    }

    /// Short options bundle as getopt's do: `-qf k=v` is `-q -f k=v`, `-qfk=v` is `-q -f k=v`.
    private static func shorts<Option: CommandOption>(
        _ token: String, position: Int, arguments: [String], index: inout Int
    ) throws(UsageError) -> [ParsedOption<Option>] {
        var found: [ParsedOption<Option>] = []
        var letters = Substring(token.dropFirst())
        while let letter = letters.first {
            let short = "-" + String(letter)
            letters = letters.dropFirst()
            guard let option = Option.allCases.first(where: { $0.spec.short == short }) else {
                throw UsageError(.unknownShortOption(short, hint: shortHint(short, options: Option.specs)))
            }
            if let placeholder = option.spec.valueName {
                var value = String(letters)
                if value.isEmpty {
                    guard index < arguments.count else { throw UsageError(.missingValue(short, placeholder: placeholder)) }
                    try refuseOptionAsValue(arguments[index], after: short, placeholder: placeholder, Option.self)
                    value = arguments[index]
                    index += 1
                } else if value.hasPrefix("=") {
                    value.removeFirst()
                }
                found.append(ParsedOption(option: option, value: value, index: position, spelling: short))
                break
            }
            if letters.first == "=" { throw UsageError(.takesNoValue(short)) }
            found.append(ParsedOption(option: option, value: nil, index: position, spelling: short))
        }
        return found
    }

    /// An option missing its value takes the next word, getopt-style; when that word is one of the command's own long
    /// options (`-t --report r.json prog`), the value was forgotten: taking it hid the `--report` and left the previous
    /// run's report whole under its name (R10C-1). Refused as a missing value and not taken, so the reading goes on with
    /// that option. A value that really is such a word is written joined: `--cwd=--report`, `-t=--x`.
    private static func refuseOptionAsValue<Option: CommandOption>(
        _ word: String, after spelling: String, placeholder: String, _: Option.Type
    ) throws(UsageError) {
        guard word.hasPrefix("--"), Option.named(String(word.prefix { $0 != "=" })) != nil else { return }
        throw UsageError(.optionAsValue(spelling, placeholder: placeholder, next: word))
    }

    /// `-t` means `--timeout` (the run form's); `test` has no short form for `--tags`.
    private static func shortHint(_ short: String, options: [OptionSpec]) -> String {
        if short == "-t", options.contains(where: { $0.long == "--tags" }) { return "; write --tags (-t is --timeout in the run form)" }
        return ""
    }
}
