import AutomationSupport
package import ProcessEngine
import Scenarios

/// A small getopt-style parser: `--name value`, `--name=value`, `-n value`, `-nvalue`, `--` ends options,
/// and the first positional ends options too (everything after the program belongs to the program).
package enum ArgumentParser {
    /// Parses `arguments` (without argv[0]).
    /// - Parameter stopAtPositional: treat everything from the first positional on as positionals.
    /// - Throws: ``UsageError`` naming the bad token, with a suggestion for a typo.
    package static func parse(_ arguments: [String], options: [OptionSpec], stopAtPositional: Bool = true) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
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
            if token.hasPrefix("--") {
                var name = token
                var inlineValue: String?
                if let equals = token.firstIndex(of: "=") {
                    name = String(token[..<equals])
                    inlineValue = String(token[token.index(after: equals)...])
                }
                guard let spec = options.first(where: { $0.long == name }) else {
                    throw UsageError("unknown option '\(name)'\(Suggestion.didYouMean(name, among: options.map(\.long), quote: "'"))")
                }
                if spec.takesValue {
                    let value: String
                    if let inlineValue {
                        value = inlineValue
                    } else {
                        guard index < arguments.count else { throw missingValue(spec, spelling: name) }
                        value = arguments[index]
                        index += 1
                    }
                    result.options.append(ParsedOption(long: spec.long, value: value, index: position, spelling: name))
                } else {
                    if inlineValue != nil { throw UsageError("option '\(name)' takes no value; write '\(name)' alone") }
                    result.options.append(ParsedOption(long: spec.long, value: nil, index: position, spelling: name))
                }
                continue
            }
            if token.hasPrefix("-"), token.count > 2, let spec = options.first(where: { $0.long == "-" + token.prefix { $0 != "=" } }) {
                throw UsageError("unknown option '\(token.prefix { $0 != "=" })'; did you mean '\(spec.long)'?")
            }
            if token.hasPrefix("-"), token.count > 1 {
                // Short options bundle as getopt's do: `-qf k=v` is `-q -f k=v`, `-qfk=v` is `-q -f k=v`.
                var letters = Substring(token.dropFirst())
                while let letter = letters.first {
                    let short = "-" + String(letter)
                    letters = letters.dropFirst()
                    guard let spec = options.first(where: { $0.short == short }) else {
                        throw UsageError("unknown option '\(short)'\(shortHint(short, options: options))")
                    }
                    if spec.takesValue {
                        var value = String(letters)
                        if value.isEmpty {
                            guard index < arguments.count else { throw missingValue(spec, spelling: short) }
                            value = arguments[index]
                            index += 1
                        } else if value.hasPrefix("=") {
                            value.removeFirst()
                        }
                        result.options.append(ParsedOption(long: spec.long, value: value, index: position, spelling: short))
                        break
                    }
                    if letters.first == "=" { throw UsageError("option '\(short)' takes no value; write '\(short)' alone") }
                    result.options.append(ParsedOption(long: spec.long, value: nil, index: position, spelling: short))
                }
                continue
            }
            if stopAtPositional {
                result.positionals.append(contentsOf: arguments[(index - 1)...])
                break
            }
            result.positionals.append(token)
        }
        return result
    }

    /// The last value of option `long` in `arguments`, found without failing on other mistakes: lets a
    /// command write the report it was asked for even when the rest of its command line is wrong.
    package static func lastValue(of long: String, in arguments: [String], options: [OptionSpec], stopAtPositional: Bool = true) -> String? {
        var found: String?
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if token == "--" { break }
            if token == long {
                if index < arguments.count { found = arguments[index] }
                index += 1
            } else if token.hasPrefix(long + "=") {
                found = String(token.dropFirst(long.count + 1))
            } else if let spec = options.first(where: { $0.long == token || $0.short == token }), spec.takesValue {
                index += 1
            } else if !token.hasPrefix("-") && stopAtPositional {
                break
            }
        }
        return found
    }

    /// `-t` means `--timeout` (the run form's); `test` has no short form for `--tags`.
    private static func shortHint(_ short: String, options: [OptionSpec]) -> String {
        if short == "-t", options.contains(where: { $0.long == "--tags" }) { return "; write --tags (-t is --timeout in the run form)" }
        return ""
    }

    private static func missingValue(_ spec: OptionSpec, spelling: String) -> UsageError {
        UsageError("option '\(spelling)' needs a value: \(spelling) \(spec.valueName ?? "VALUE")")
    }
}
