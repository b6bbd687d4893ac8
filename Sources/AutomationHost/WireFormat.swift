#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How flags travel from `sut-launch` to the program under test. Encoder and decoder live side by side so
/// both ends can never disagree.
///
/// argv is `PROGRAM UI_TEST_MODE EPHEMERAL_{json} AUTOMATION_{json} ARGS...` (a kind with no flags is left
/// out), and the environment carries `SUT_EPHEMERAL={json}`, `SUT_AUTOMATION={json}` and `SUT_UNDER_TEST=1`.
public enum WireFormat {
    /// The launch argument that marks a run under test (the seed toolkit's marker).
    public static let testModeArgument = "UI_TEST_MODE"
    /// Prefix of the launch argument that carries the feature flags.
    public static let ephemeralPrefix = "EPHEMERAL_"
    /// Prefix of the launch argument that carries the automation flags.
    public static let automationPrefix = "AUTOMATION_"
    /// Environment variable that carries the feature flags.
    public static let ephemeralVariable = "SUT_EPHEMERAL"
    /// Environment variable that carries the automation flags.
    public static let automationVariable = "SUT_AUTOMATION"
    /// Environment variable set to `1` in every run under test.
    public static let underTestVariable = "SUT_UNDER_TEST"
    /// Environment variable that carries the mock server's base URL.
    public static let mockServerURLVariable = "SUT_MOCK_SERVER_URL"
    /// Environment variable that carries the control channel's base URL (``ControlChannel``).
    public static let controlURLVariable = "SUT_CONTROL_URL"
    /// Environment variable set to `env` when the flags travel in the environment only (`--flags-in env`) while argv
    /// carries none: the program's own argv[1…] is then its own even when it equals the block `both` would make.
    public static let flagsInVariable = "SUT_FLAGS_IN"
    /// Automation flag that carries the mock server's base URL.
    public static let mockServerURLKey = "mockServerURL"
    /// Automation flag that names the entry point.
    public static let entryPointKey = "entryPoint"

    /// Where the flags go.
    public enum Channel: String, Sendable, CaseIterable {
        case args, env, both
    }

    // MARK: Encoding

    /// Encodes flags as one compact JSON object with sorted keys and unescaped slashes.
    public static func encode(_ flags: [String: FlagValue]) -> String {
        encodeValue(.object(flags))
    }

    /// Writes JSON byte for byte as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` does (a test
    /// holds the two side by side), except that a Double with no fraction keeps its `.0`, by hand: Codable's first use costs a launch ~0.1 ms of metadata lookups.
    /// A non-finite Double (FlagValue holds only finite numbers it was given) is written as null.
    static func encodeValue(_ value: FlagValue) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(value, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func write(_ value: FlagValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .double(let number):
            guard number.isFinite else { return output.append(contentsOf: "null".utf8) }
            // Swift's shortest text: a Double stays a Double on the wire (`1.0`, `-0.0`, `100.0`, `1e+21`), where
            // JSONEncoder writes `1` and `-0`, which a reader takes for the Int 1 and 0.
            output.append(contentsOf: number.description.utf8)
        case .string(let text): writeString(text, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(members[key]!, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, to output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The launch arguments that go between the program path and its own arguments.
    public static func launchArguments(ephemeral: [String: FlagValue], automation: [String: FlagValue]) -> [String] {
        var arguments = [testModeArgument]
        if !ephemeral.isEmpty { arguments.append(ephemeralPrefix + encode(ephemeral)) }
        if !automation.isEmpty { arguments.append(automationPrefix + encode(automation)) }
        return arguments
    }

    /// The launch arguments for a reader of argv by position (no flag variables: `--flags-in args`), before the
    /// program's own `first` argument. A kind with no flags is left out, but a slot left open after the block would
    /// take the program's own `first` argument when it starts with `EPHEMERAL_` or `AUTOMATION_` (``decode(arguments:environment:)``
    /// reads what stands there as flags): then both kinds are sent, `{}` for an empty one, and `first` stays the
    /// program's own (R10C-12: `AUTOMATION_{"simulateUserAlreadyLoggedIn":true}` of its own logged it in).
    /// - Parameters:
    ///   - ephemeral: the feature flags.
    ///   - automation: the automation flags.
    ///   - first: the program's own first argument, nil when it has none.
    /// - Returns: `UI_TEST_MODE` and the blocks.
    public static func positionalArguments(
        ephemeral: [String: FlagValue], automation: [String: FlagValue], before first: String?
    ) -> [String] {
        guard let first, first.hasPrefix(ephemeralPrefix) || first.hasPrefix(automationPrefix) else {
            return launchArguments(ephemeral: ephemeral, automation: automation)
        }
        return [testModeArgument, ephemeralPrefix + encode(ephemeral), automationPrefix + encode(automation)]
    }

    /// The environment variables that carry the flags: both kinds always, `{}` for a kind with no flags,
    /// so a program can tell "no flags" from "not launched by sut-launch".
    public static func environment(ephemeral: [String: FlagValue], automation: [String: FlagValue]) -> [String: String] {
        [underTestVariable: "1", ephemeralVariable: encode(ephemeral), automationVariable: encode(automation)]
    }

    // MARK: Decoding

    /// Decodes one marshalled JSON object. A valid JSON value that is not an object, an empty text or broken
    /// JSON is a ``WireFormatProblem``, never a crash.
    public static func decodeObject(_ text: String, source: String) -> Result<[String: FlagValue], WireFormatProblem> {
        if text.isEmpty {
            return .failure(WireFormatProblem(source: source, message: "is empty; expected a JSON object like {\"key\":true}"))
        }
        if text == notText {
            return .failure(
                WireFormatProblem(source: source, message: "is not UTF-8 (bytes that are not text; sut-launch refuses them too)"))
        }
        let value: FlagValue
        switch StrictJSON.parse(text) {
        case .success(let parsed): value = parsed
        case .failure(let problem):
            return .failure(WireFormatProblem(source: source, message: "is not valid JSON (\(problem.message)): \(excerpt(text))"))
        }
        guard case .object(let object) = value else {
            return .failure(
                WireFormatProblem(
                    source: source, message: "is a JSON \(value.typeName), expected an object like {\"key\":true}: \(excerpt(text))"))
        }
        return .success(object)
    }

    /// What a program under test received: both flag kinds, its own arguments, and any problems found.
    public struct Received: Sendable {
        /// Feature flags (`EPHEMERAL_{json}` / `SUT_EPHEMERAL`).
        public var ephemeral: [String: FlagValue] = [:]
        /// Automation flags (`AUTOMATION_{json}` / `SUT_AUTOMATION`).
        public var automation: [String: FlagValue] = [:]
        /// argv without the marshalled entries (`UI_TEST_MODE`, `EPHEMERAL_…`, `AUTOMATION_…` at argv[1...] only).
        public var arguments: [String] = []
        /// True when argv[1] is `UI_TEST_MODE` or `SUT_UNDER_TEST=1` is set; flags are read only then.
        public var isUnderTest = false
        /// Values that could not be read (their flags are left out).
        public var problems: [WireFormatProblem] = []
    }

    /// Reads flags from argv and the environment, only in a run under test, and marshalled entries only at their
    /// wire positions:
    /// - `SUT_UNDER_TEST=1` with `SUT_EPHEMERAL` or `SUT_AUTOMATION` (sut-launch's `--flags-in env` or `both`): under
    ///   test, flags from the environment only; argv[1...] is left out only when it is exactly the block those
    ///   flags make (`both`) and carries a flag, else argv is the program's own, exactly as written (even an argv[1]
    ///   `UI_TEST_MODE`: sut-launch sends `both` with no flags as `args`);
    /// - else argv[1] is `UI_TEST_MODE` (sut-launch's `--flags-in args`, the seed toolkit's layout, whose marker alone
    ///   means test mode with no flags): under test; argv[2] may be `EPHEMERAL_{json}`, then the next may be
    ///   `AUTOMATION_{json}`, in that order; what follows is the program's own; the environment's SUT_EPHEMERAL and
    ///   SUT_AUTOMATION are not read (without `SUT_UNDER_TEST=1` the launcher did not set them: a value a shell or CI job
    ///   left exported is not this launch's);
    /// - else `SUT_UNDER_TEST=1` alone: under test, no flags, argv exactly as written;
    /// - otherwise not under test: no flags at all (neither argv nor `SUT_EPHEMERAL`/`SUT_AUTOMATION` is read) and
    ///   argv exactly as written. An argument of the user's own that starts with `AUTOMATION_` (a wrapper script, a
    ///   file name, a URL handler) must not switch on a test-only state such as `simulateUserAlreadyLoggedIn`.
    public static func decode(arguments argv: [String], environment: [String: String]) -> Received {
        decode(arguments: argv, environment: environment, notUTF8: NotUTF8())
    }

    /// The argv indices and variable names whose bytes were not UTF-8 (Swift read them with U+FFFD).
    struct NotUTF8 {
        var arguments: Set<Int> = []
        var variables: Set<String> = []
    }

    static func decode(arguments argv: [String], environment: [String: String], notUTF8: NotUTF8) -> Received {
        var received = Received()
        var ephemeralText: (String, String)?
        var automationText: (String, String)?

        var remaining = argv
        let underSutLaunch = environment[underTestVariable] == "1"
        if underSutLaunch, environment[ephemeralVariable] != nil || environment[automationVariable] != nil {
            // --flags-in env or both: the flags are the environment's. argv[1...] is sut-launch's block only when it is
            // byte for byte the block those flags make (`both`); anything else there is the program's own (`env`).
            var block = [testModeArgument]
            for (prefix, name) in [(ephemeralPrefix, ephemeralVariable), (automationPrefix, automationVariable)] {
                if let text = environment[name], text != "{}" { block.append(prefix + text) }
            }
            // A lone `UI_TEST_MODE` is the program's own: sut-launch sends `both` with no flags as `args` (no variables).
            // Under `--flags-in env` (SUT_FLAGS_IN=env) argv is the program's own, whatever it holds (R8C-13: its own
            // `UI_TEST_MODE EPHEMERAL_{"a":1}`, equal to the flags' block, was dropped from `arguments`).
            if environment[flagsInVariable] != "env", block.count > 1, argv.count > block.count, Array(argv[1...block.count]) == block {
                remaining = [argv[0]] + argv[(block.count + 1)...]
            }
            if let text = environment[ephemeralVariable] {
                ephemeralText = (
                    notUTF8.variables.contains(ephemeralVariable) ? notText : text, "environment variable \(ephemeralVariable)"
                )
            }
            if let text = environment[automationVariable] {
                automationText = (
                    notUTF8.variables.contains(automationVariable) ? notText : text, "environment variable \(automationVariable)"
                )
            }
        } else if argv.count > 1, argv[1] == testModeArgument {
            // sut-launch's --flags-in args (it always sends UI_TEST_MODE first), or another launcher of this wire.
            received.isUnderTest = true
            var index = 2
            if index < argv.count, argv[index].hasPrefix(ephemeralPrefix) {
                ephemeralText = (WireFormat.argument(index, ephemeralPrefix, argv, notUTF8), "launch argument EPHEMERAL_")
                index += 1
            }
            if index < argv.count, argv[index].hasPrefix(automationPrefix) {
                automationText = (WireFormat.argument(index, automationPrefix, argv, notUTF8), "launch argument AUTOMATION_")
                index += 1
            }
            remaining = [argv[0]] + argv[index...]
        }
        // Not under test at all: no flags from anywhere, argv exactly as written.
        if underSutLaunch { received.isUnderTest = true }
        received.arguments = remaining
        return decodeFlags(ephemeralText, automationText, into: received)
    }

    /// `received` with the flags of the marshalled texts found (each with its source), or their problems.
    private static func decodeFlags(_ ephemeralText: (String, String)?, _ automationText: (String, String)?, into received: Received)
        -> Received
    {
        var received = received
        if let (text, source) = ephemeralText {
            switch decodeObject(text, source: source) {
            case .success(let flags): received.ephemeral = flags
            case .failure(let problem): received.problems.append(problem)
            }
        }
        if let (text, source) = automationText {
            switch decodeObject(text, source: source) {
            case .success(let flags): received.automation = flags
            case .failure(let problem): received.problems.append(problem)
            }
        }
        return received
    }

    /// Stands for a value whose bytes were not UTF-8 (no JSON text starts with NUL).
    static let notText = "\u{0}not UTF-8"

    /// The text after `prefix` of argv[index], or ``notText`` when its bytes were not UTF-8.
    private static func argument(_ index: Int, _ prefix: String, _ argv: [String], _ notUTF8: NotUTF8) -> String {
        notUTF8.arguments.contains(index) ? notText : String(argv[index].dropFirst(prefix.count))
    }

    private static func excerpt(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }
}

/// A marshalled value that could not be read. The program keeps running; the bridge reports it once.
public struct WireFormatProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the value came from: "launch argument EPHEMERAL_" or "environment variable SUT_AUTOMATION".
    public var source: String
    /// What is wrong with it.
    public var message: String
    /// The source, then the message.
    public var description: String { "\(source) \(message)" }
}
