import AutomationHost
import ProcessEngine

/// Options whose value is one of a few words (`--flags-in args|env|both`, `--launcher`, `--color`, `--format`).
enum ChoiceOptions {
    /// `--flags-in args|env|both`.
    static func channel<Option>(_ option: ParsedOption<Option>) throws(UsageError) -> WireFormat.Channel {
        guard let channel = WireFormat.Channel(rawValue: option.value ?? "") else {
            throw UsageError(.notOneOf(option.spelling, value: option.value ?? "", choices: ["args", "env", "both"], index: nil))
        }
        return channel
    }

    /// `--launcher spawn|foundation` (`posix-spawn`, the old name of `spawn`, still accepted).
    static func launcher<Option>(_ option: ParsedOption<Option>) throws(UsageError) -> LauncherBackend {
        guard let backend = LauncherBackend(named: option.value ?? "") else {
            throw UsageError(.notOneOf(option.spelling, value: option.value ?? "", choices: ["spawn", "foundation"], index: option.index))
        }
        return backend
    }

    /// A value that must be one of `choices` (`--color auto|always|never`, `--format plain|github`).
    static func word<Option>(_ option: ParsedOption<Option>, in choices: [String]) throws(UsageError) -> String {
        let value = option.value ?? ""
        guard choices.contains(value) else { throw UsageError(.notOneOf(option.spelling, value: value, choices: choices, index: nil)) }
        return value
    }
}
