import AutomationHost
import AutomationSupport
import Foundation
import Testing

@Suite struct WireFormatTests {
    private func roundTrip(_ ephemeral: [String: FlagValue], _ automation: [String: FlagValue] = [:]) -> WireFormat.Received {
        let argv = ["/bin/prog"] + WireFormat.launchArguments(ephemeral: ephemeral, automation: automation) + ["own", "args"]
        return WireFormat.decode(arguments: argv, environment: [:])
    }

    @Test func everyJSONTypeRoundTripsThroughLaunchArguments() {
        let flags: [String: FlagValue] = [
            "bool": true, "false": false, "int": 42, "negative": -7, "double": 1.25, "string": "text",
            "null": nil, "array": [1, "two", [3.5], ["k": false]], "object": ["nested": ["deeper": "yes"]],
            "big": .int(Int.max), "small": .int(Int.min),
        ]
        let received = roundTrip(flags, ["auto": "x"])
        #expect(received.problems.isEmpty)
        #expect(received.ephemeral == flags)
        #expect(received.automation == ["auto": "x"])
        #expect(received.arguments == ["/bin/prog", "own", "args"])
        #expect(received.isUnderTest)
    }

    /// R10C-12: read by position, a program's own first argument `EPHEMERAL_…`/`AUTOMATION_…` stood in a slot an empty
    /// kind left open and became flags. Whatever kinds are empty, it now stays the program's own.
    @Test func aProgramsOwnFirstArgumentNeverFillsAnOpenSlot() {
        let kinds: [[String: FlagValue]] = [[:], ["a": 1]]
        for ephemeral in kinds {
            for automation in kinds {
                for own in [#"EPHEMERAL_{"x":true}"#, #"AUTOMATION_{"x":true}"#, "EPHEMERAL_", "plain"] {
                    let block = WireFormat.positionalArguments(ephemeral: ephemeral, automation: automation, before: own)
                    let received = WireFormat.decode(
                        arguments: ["/bin/prog"] + block + [own, "more"], environment: ["SUT_UNDER_TEST": "1"])
                    #expect(received.problems.isEmpty && received.arguments == ["/bin/prog", own, "more"], "\(block) \(own)")
                    #expect(received.ephemeral == ephemeral && received.automation == automation, "\(block) \(own)")
                }
            }
        }
        #expect(WireFormat.positionalArguments(ephemeral: [:], automation: [:], before: "plain") == ["UI_TEST_MODE"])
        #expect(WireFormat.positionalArguments(ephemeral: [:], automation: [:], before: nil) == ["UI_TEST_MODE"])
    }

    @Test(arguments: [
        "ünïcödé ✓ 日本語 🚀", "say \"hi\" and 'bye'", "a=b=c", "line1\nline2\r\nline3", "back\\slash", "tab\tand\u{0}nul",
        "{\"looks\":\"like json\"}", "EPHEMERAL_{}", "", "/path/with/slashes", "\u{7F}\u{1F}",
    ])
    func awkwardStringsRoundTrip(value: String) {
        let received = roundTrip(["value": .string(value)])
        #expect(received.problems.isEmpty)
        #expect(received.ephemeral["value"] == .string(value))
    }

    @Test func emptyKindsAreLeftOut() {
        #expect(WireFormat.launchArguments(ephemeral: [:], automation: [:]) == ["UI_TEST_MODE"])
        #expect(WireFormat.launchArguments(ephemeral: [:], automation: ["a": 1]) == ["UI_TEST_MODE", "AUTOMATION_{\"a\":1}"])
        #expect(
            WireFormat.environment(ephemeral: [:], automation: [:]) == [
                "SUT_UNDER_TEST": "1", "SUT_EPHEMERAL": "{}", "SUT_AUTOMATION": "{}",
            ])
        #expect(roundTrip([:]).ephemeral.isEmpty)
    }

    /// R10C-4: arrays and objects are counted, not the scalar inside them, as sut-launch counts them: a block whose value
    /// holds 127 containers around a scalar (128 with the block) is read; one container more is refused.
    @Test func depthCountsContainersNotTheScalarInside() throws {
        func block(_ depth: Int, _ inner: String) -> String {
            #"{"a":1,"k":"# + String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth) + "}"
        }
        for inner in ["1", "\"s\"", "null", ""] {
            let read = WireFormat.decodeObject(block(127, inner), source: "test")
            #expect((try? read.get())?["a"] == 1, "\(inner): \(read)")
            guard case .failure(let problem) = WireFormat.decodeObject(block(128, inner), source: "test") else {
                Issue.record("128 containers around \(inner) were read")
                continue
            }
            #expect(problem.message.contains("nested more than 128 levels deep"), "\(problem)")
        }
    }

    @Test func anEmptyObjectInsideRoundTrips() {
        let received = roundTrip(["empty": [:], "emptyArray": []])
        #expect(received.ephemeral == ["empty": .object([:]), "emptyArray": .array([])])
    }

    @Test func aOneMegabyteValueRoundTrips() {
        let big = String(repeating: "0123456789abcdef", count: 65_536) // 1 MiB
        let received = roundTrip(["big": .string(big)])
        #expect(received.ephemeral["big"] == .string(big))
    }

    @Test func encodingIsCompactSortedAndByteCompatibleWithTheSeedLayout() {
        #expect(WireFormat.encode(["b": 1, "a": "x/y"]) == #"{"a":"x/y","b":1}"#)
        #expect(
            WireFormat.launchArguments(ephemeral: ["skipPreActiveCheck": true], automation: [:])
                == ["UI_TEST_MODE", #"EPHEMERAL_{"skipPreActiveCheck":true}"#])
    }

    /// The hand-written encoder against Foundation's JSONEncoder, the encoder it replaced, on values drawn at
    /// random (fixed seed): every control character, quotes, backslashes, slashes, non-ASCII, keys that sort
    /// differently by case and by number, integers and doubles of every magnitude, nesting.
    @Test func encodingMatchesJSONEncoderByteForByte() throws {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet: [Character] =
            (0..<0x20).map { Character(Unicode.Scalar($0)) } + [
                "\"", "\\", "/", "a", "B", "z", "é", "日", "🙂", "1", "9", "_", "\u{7F}", "\u{2028}",
            ]
        func text() -> String { String((0..<generator.next(upTo: 8)).map { _ in alphabet[generator.next(upTo: alphabet.count)] }) }
        func value(_ depth: Int) -> FlagValue {
            switch generator.next(upTo: depth > 3 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(generator.next(upTo: 2) == 0)
            case 2: return .int([0, 1, -1, Int.max, Int.min, 42, 1_000_000_007][generator.next(upTo: 7)])
            case 3:
                return .double(
                    [0.5, -1.5, 2.75, 1e21, 1e-7, 3.14159, 123456789.125, .greatestFiniteMagnitude, 2.5e-308][generator.next(upTo: 9)])
            case 4: return .string(text())
            case 5: return .array((0..<generator.next(upTo: 4)).map { _ in value(depth + 1) })
            default:
                var members: [String: FlagValue] = [:]
                for _ in 0..<generator.next(upTo: 5) { members[text()] = value(depth + 1) }
                for key in ["flag10", "flag9", "Flag", "flag", "B", "a"] where generator.next(upTo: 3) == 0 { members[key] = .int(1) }
                return .object(members)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for _ in 0..<2_000 {
            let sample = ["v": value(0)]
            let expected = String(decoding: try encoder.encode(sample), as: UTF8.self)
            #expect(WireFormat.encode(sample) == expected)
        }
    }

    @Test func environmentCarriesTheSameFlags() {
        let environment = WireFormat.environment(ephemeral: ["a": 1], automation: ["b": true])
        #expect(environment == ["SUT_UNDER_TEST": "1", "SUT_EPHEMERAL": #"{"a":1}"#, "SUT_AUTOMATION": #"{"b":true}"#])
        let received = WireFormat.decode(arguments: ["prog"], environment: environment)
        #expect(received.ephemeral == ["a": 1])
        #expect(received.automation == ["b": true])
        #expect(received.isUnderTest)
    }

    @Test func launchArgumentsWinOverTheEnvironment() {
        let received = WireFormat.decode(
            arguments: ["prog", "UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#],
            environment: ["SUT_EPHEMERAL": #"{"a":2}"#, "SUT_AUTOMATION": #"{"b":3}"#])
        #expect(received.ephemeral == ["a": 1])
        // R8C-3: without SUT_UNDER_TEST=1 the launcher did not set the environment's flags: a kind the block does not
        // carry is not read from a variable a shell left exported.
        #expect(received.automation == [:])
    }

    /// Finding r6a-4: outside a run, `MyAppCLI login 'AUTOMATION_{"simulateUserAlreadyLoggedIn":true,...}'` logged in
    /// as admin; an argument anywhere in argv became flags or test mode and vanished from `arguments`.
    @Test(arguments: [
        ["prog", "login", #"AUTOMATION_{"simulateUserAlreadyLoggedIn":true,"userName":"admin"}"#],
        ["prog", "flags", "x", "y", #"EPHEMERAL_{"a":2}"#],
        ["prog", "flags", "EPHEMERAL_notes.txt"],
        ["prog", "flags", "UI_TEST_MODE"],
        ["prog", #"EPHEMERAL_{"a":2}"#, #"EPHEMERAL_{"b":2}"#],
        ["prog", "first", #"AUTOMATION_{"x":true}"#, "UI_TEST_MODE", #"EPHEMERAL_{"y":1}"#, "last"],
    ])
    func outsideARunNoArgumentIsFlags(argv: [String]) {
        for environment in [[:], ["SUT_EPHEMERAL": #"{"a":1}"#, "SUT_AUTOMATION": #"{"b":1}"#]] {
            let received = WireFormat.decode(arguments: argv, environment: environment)
            #expect(received.ephemeral.isEmpty && received.automation.isEmpty, "\(argv) \(environment)")
            #expect(received.arguments == argv)
            #expect(!received.isUnderTest)
            #expect(received.problems.isEmpty)
        }
    }

    @Test func theBlockIsReadOnlyAtItsWirePositionsInWireOrder() {
        // AUTOMATION_ before EPHEMERAL_ is not the wire's order: the second is the program's own argument.
        let swapped = WireFormat.decode(
            arguments: ["prog", "UI_TEST_MODE", #"AUTOMATION_{"x":true}"#, #"EPHEMERAL_{"y":1}"#, "last"], environment: [:])
        #expect(swapped.automation == ["x": true])
        #expect(swapped.ephemeral.isEmpty)
        #expect(swapped.arguments == ["prog", #"EPHEMERAL_{"y":1}"#, "last"])
        let twice = WireFormat.decode(arguments: ["prog", "UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, #"EPHEMERAL_{"a":2}"#], environment: [:])
        #expect(twice.ephemeral == ["a": 1])
        #expect(twice.arguments == ["prog", #"EPHEMERAL_{"a":2}"#])
    }

    /// `--flags-in env` puts no block in argv: the program's own `UI_TEST_MODE AUTOMATION_{...}` at argv[1] is data,
    /// never flags over the environment's; `--flags-in both` puts the same flags in both, and the block is left out.
    @Test func underFlagsInEnvAnOwnArgv1BlockIsData() {
        let environment = ["SUT_UNDER_TEST": "1", "SUT_EPHEMERAL": #"{"a":1}"#, "SUT_AUTOMATION": "{}"]
        let own = ["prog", "UI_TEST_MODE", #"AUTOMATION_{"simulateUserAlreadyLoggedIn":true}"#, "x"]
        let received = WireFormat.decode(arguments: own, environment: environment)
        #expect(received.automation.isEmpty)
        #expect(received.ephemeral == ["a": 1])
        #expect(received.arguments == own)
        let both = WireFormat.decode(arguments: ["prog", "UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "x"], environment: environment)
        #expect(both.arguments == ["prog", "x"])
        #expect(both.ephemeral == ["a": 1])
    }

    /// A program sut-launch started with its own argument `EPHEMERAL_{...}` (no flags, or --flags-in env): the
    /// argument was taken as flags and beat the environment's, so a test's `-f` was silently lost.
    @Test func underSutLaunchTheProgramsOwnArgumentsAreNeverFlags() {
        let environment = ["SUT_UNDER_TEST": "1", "SUT_EPHEMERAL": #"{"greeting":"x"}"#]
        let argv = ["prog", "greet", #"EPHEMERAL_{"greeting":"injected"}"#, "UI_TEST_MODE"]
        let received = WireFormat.decode(arguments: argv, environment: environment)
        #expect(received.ephemeral == ["greeting": "x"])
        #expect(received.arguments == argv)
        #expect(received.isUnderTest)
    }

    @Test func ownArgumentsThatLookMarshalledAfterTheBlockAreKept() {
        let received = WireFormat.decode(
            arguments: ["prog", "UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "x", "EPHEMERAL_mine"], environment: [:])
        #expect(received.arguments == ["prog", "x", "EPHEMERAL_mine"])
    }

    @Test(arguments: [
        ("EPHEMERAL_[1]", "is a JSON array, expected an object"),
        ("EPHEMERAL_", "is empty"),
        ("EPHEMERAL_{broken", "is not valid JSON"),
        ("EPHEMERAL_\"text\"", "is a JSON string, expected an object"),
        ("EPHEMERAL_42", "is a JSON number, expected an object"),
        ("EPHEMERAL_null", "is a JSON null, expected an object"),
    ])
    func malformedValuesBecomeProblemsNotCrashes(argument: String, expected: String) {
        let received = WireFormat.decode(arguments: ["prog", "UI_TEST_MODE", argument, "own"], environment: [:])
        #expect(received.ephemeral.isEmpty)
        #expect(received.arguments == ["prog", "own"])
        #expect(received.problems.count == 1)
        #expect(received.problems.first?.description.contains(expected) == true, "\(received.problems)")
        #expect(received.problems.first?.source == "launch argument EPHEMERAL_")
    }

    @Test func aMalformedEnvironmentVariableIsNamed() {
        let received = WireFormat.decode(arguments: ["prog"], environment: ["SUT_UNDER_TEST": "1", "SUT_AUTOMATION": "{"])
        #expect(received.problems.map(\.source) == ["environment variable SUT_AUTOMATION"])
    }

    /// A Double with no fraction travels as one (`-f n=1.0` reached the program as `{"n":1}`, an Int, and -0.0 as 0):
    /// the only place the encoder differs from JSONEncoder.
    @Test func doublesWithoutAFractionStayDoublesOnTheWire() {
        #expect(
            WireFormat.encode(["a": .double(1.0), "b": .double(-0.0), "c": .double(100), "d": .int(1)])
                == #"{"a":1.0,"b":-0.0,"c":100.0,"d":1}"#)
    }

    @Test func numbersKeepTheirJSONType() {
        let received = WireFormat.decode(
            arguments: ["p", "UI_TEST_MODE", #"EPHEMERAL_{"one":1,"t":true,"d":2.5,"e":1e3}"#], environment: [:])
        #expect(received.ephemeral["one"] == .int(1))
        #expect(received.ephemeral["t"] == .bool(true))
        #expect(received.ephemeral["d"] == .double(2.5))
        let configuration = FlagConfiguration(received.ephemeral)
        #expect(configuration.bool("one") == nil) // 1 is not true
        #expect(configuration.int("t") == nil)
        #expect(configuration.double("e") == 1000)
    }
}
