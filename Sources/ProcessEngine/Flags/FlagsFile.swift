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
                if member.key == "featureFlags" {
                    result.featureFlags = flags
                } else {
                    for entry in member.value.members ?? [] {
                        if let problem = LaunchFlags.automationProblem(key: entry.key, value: FlagValue(entry.value)) {
                            throw InputError(file: file, position: entry.value.position, "automationFlags: " + problem)
                        }
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
                    switch variable.value.value {
                    case .string(let text): result.environment[variable.key] = text
                    case .int, .double, .bool: result.environment[variable.key] = JSONWriter.write(variable.value)
                    default:
                        throw InputError(
                            file: file, position: variable.value.position,
                            "env \"\(variable.key)\" must be a string, found a JSON \(variable.value.typeName)")
                    }
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
