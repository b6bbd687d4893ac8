import AutomationHost
import AutomationSupport
import MockServer
import ProcessEngine

/// Options whose value is one of a few words (`--flags-in args|env|both`, `--launcher`, `--color`, `--format`),
/// or one of a kind of value (`--host`: an IP address).
enum ChoiceOptions {
    /// `--host ADDRESS`: an IPv4 or IPv6 address to listen on, as written in a URL's host without brackets. A name
    /// (`localhost`) or `[::1]` was exit 125 from inet_pton after the stubs had loaded.
    static func listenAddress<Option>(_ option: ParsedOption<Option>) throws(UsageError) -> String {
        let value = option.value ?? ""
        guard Socket.isIPv4Address(value) || Socket.isIPv6Address(value) else {
            let hint =
                value == "localhost"
                ? "127.0.0.1" : value.hasPrefix("[") && value.hasSuffix("]") ? String(value.dropFirst().dropLast()) : "127.0.0.1 or ::1"
            throw UsageError(.invalidPattern(option.spelling, value: String(value.prefix(80)), problem: "not an IP address; write \(hint)"))
        }
        return value
    }

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
