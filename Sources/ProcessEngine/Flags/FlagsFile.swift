package import AutomationHost
import AutomationSupport
import MockServer

/// A `--flags-file`: `{"featureFlags": {...}, "automationFlags": {...}, "env": {...}}`.
package struct FlagsFile: Sendable, Hashable {
    /// `featureFlags`: sent as `EPHEMERAL_{json}` / `SUT_EPHEMERAL`.
    package var featureFlags: [String: FlagValue] = [:]
    /// `automationFlags`: sent as `AUTOMATION_{json}` / `SUT_AUTOMATION`.
    package var automationFlags: [String: FlagValue] = [:]
    /// `env`: variables set for the program.
    package var environment: [String: String] = [:]
    /// Where `automationFlags.mockServerURL` stands (`FILE:LINE:COLUMN`), for a message refusing it beside `--stub`.
    package var mockServerURLOrigin: String?

    /// An empty flags file.
    package init() {}

    static let knownKeys = ["featureFlags", "automationFlags", "env"]

    /// Parses the file's text.
    /// - Throws: ``InputError`` naming the file, line and column, and the key that is wrong.
    package static func parse(_ text: String, file: String) throws(InputError) -> FlagsFile {
        let root: JSONNode
        do {
            root = try JSONParser.parse(exactIntegers: text)
        } catch {
            throw InputError(file: file, position: error.position, error.message)
        }
        guard let members = root.members else {
            throw InputError(
                file: file, position: root.position,
                "expected an object with \"featureFlags\", \"automationFlags\" and \"env\", found a JSON \(root.typeName)")
        }
        var result = FlagsFile()
        for member in members {
            switch member.key {
            case "featureFlags", "automationFlags":
                guard case .object(let flags) = FlagValue(member.value) else {
                    throw InputError(
                        file: file, position: member.value.position,
                        "\"\(member.key)\" must be an object of flags, found a JSON \(member.value.typeName)")
                }
                // The options' rules for each flag (`-f '=1'` is refused, so is an empty key here).
                if let empty = member.value.members?.first(where: { $0.key.isEmpty }) {
                    throw InputError(
                        file: file, position: empty.keyPosition, "\(member.key): a flag's key is empty (as in -f '=1'); name the flag")
                }
                if member.key == "featureFlags" {
                    result.featureFlags = flags
                } else {
                    for entry in member.value.members ?? [] {
                        if let problem = LaunchFlags.automationProblem(key: entry.key, value: FlagValue(entry.value)) {
                            throw InputError(file: file, position: entry.value.position, "automationFlags: " + problem)
                        }
                        if entry.key == WireFormat.mockServerURLKey { result.mockServerURLOrigin = "\(file):\(entry.keyPosition)" }
                    }
                    result.automationFlags = flags
                }
            case "env":
                guard let variables = member.value.members else {
                    throw InputError(
                        file: file, position: member.value.position,
                        "\"env\" must be an object of strings, found a JSON \(member.value.typeName)")
                }
                for variable in variables {
                    if let problem = EnvironmentVariable.problem(name: variable.key, value: variable.value.string ?? "") {
                        throw InputError(file: file, position: variable.keyPosition, "env: \(problem)")
                    }
                    // A variable's value is text, as `-e V=5` gives it: a JSON number or boolean was turned into its
                    // text here while null was refused; now every type but a string is refused alike.
                    guard case .string(let text) = variable.value.value else {
                        let hint = ["number", "boolean"].contains(variable.value.typeName) ? " (write it in quotes, as -e gives it)" : ""
                        throw InputError(
                            file: file, position: variable.value.position,
                            "env \"\(variable.key)\" must be a string, found a JSON \(variable.value.typeName)\(hint)")
                    }
                    result.environment[variable.key] = text
                }
            default:
                throw InputError(
                    file: file, position: member.keyPosition,
                    "unknown key \"\(member.key)\"\(Suggestion.didYouMean(member.key, among: knownKeys, otherwise: "; expected one of featureFlags, automationFlags, env"))"
                )
            }
        }
        return result
    }
}
