import AutomationHost
import Testing

/// The `key=value` form's numbers (`-f n=…`, a flag step, `flag set n=…`): every text JSON reads as a number is a
/// number, and one that would not arrive as written is refused with `:=`'s words (r5c finding 5: `2e-324`, `1e400`
/// became text while `4.9e-324` was refused).
@Suite struct FlagInferenceTests {
    /// JSON numbers a Double or an Int cannot keep: refused in one wording, kept as the text where nothing can refuse.
    static let refused: [(String, String)] = [
        ("2e-324", "has more digits than a double keeps (it would read as 0.0)"),
        ("3e-324", "has more digits than a double keeps (it would read as 5e-324)"),
        ("4.9e-324", "has more digits than a double keeps (it would read as 5e-324)"),
        ("1e-400", "has more digits than a double keeps (it would read as 0.0)"),
        ("-1e-400", "has more digits than a double keeps (it would read as -0.0)"),
        ("1.0000000000000000001", "has more digits than a double keeps (it would read as 1.0)"),
        ("1e400", "is out of range"), ("1E400", "is out of range"), ("-1e400", "is out of range"),
        ("1.7976931348623159e308", "is out of range"),
        ("9223372036854775808", "does not fit in 64 bits"), ("-9223372036854775809", "does not fit in 64 bits"),
        (String(repeating: "9", count: 10_000), "does not fit in 64 bits"),
        ("0." + String(repeating: "0", count: 9_998) + "1", "has more digits than a double keeps"),
        ("-0", "would lose its sign"),
    ]

    @Test(arguments: refused)
    func aNumberThatWouldNotArriveAsWrittenIsRefused(text: String, reason: String) {
        let problem = FlagValue.inferredProblem(key: "n", text: text)
        #expect(problem?.contains(reason) == true, "\(text.prefix(30)): \(problem ?? "nil")")
        #expect(problem?.contains("send it as text with n:='\"") == true)
        #expect(problem.map { $0.count < 400 && !$0.contains("\n") } == true)
        #expect(FlagValue.inferred(from: text) == .string(text))
    }

    @Test(arguments: [
        ("0", FlagValue.int(0)), ("-1", .int(-1)), ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
        ("1e3", .double(1000)), ("1E3", .double(1000)), ("1e+3", .double(1000)), ("2.5e3", .double(2500)), ("1e300", .double(1e300)),
        ("1e-300", .double(1e-300)), ("5e-324", .double(.leastNonzeroMagnitude)),
        ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        ("-0.0", .double(-0.0)), ("0e5", .double(0)), ("1.50", .double(1.5)),
    ])
    func aNumberADoubleOrIntKeepsIsANumber(text: String, expected: FlagValue) {
        #expect(FlagValue.inferredProblem(key: "n", text: text) == nil)
        #expect(FlagValue.inferred(from: text) == expected)
    }

    /// Not JSON numbers: text, never refused (HOSTILE.md class 1 and the shapes JSON leaves out).
    @Test(arguments: [
        "", "+", "-", "+1", "+0", "00", "007", "-01", "0x10", "1_000", " 5", "5 ", "\t5", "5\n", "\u{A0}5", "NaN", "nan", "inf", "-inf",
        "Infinity", "1.", ".5", "1e", "1e+", "-.5", "٣", "３", "5\u{0}", "\u{0}", "\u{FEFF}5", "1,5", "2^63",
    ])
    func whatJSONDoesNotReadAsANumberIsText(text: String) {
        #expect(FlagValue.inferredProblem(key: "n", text: text) == nil, "\(text.debugDescription)")
        #expect(FlagValue.inferred(from: text) == .string(text), "\(text.debugDescription)")
    }

    /// The Host library's `flag set` reads the same way: refused (no command, an error naming it) or applied.
    @Test func flagSetFollowsTheSameRule() {
        for (text, _) in Self.refused {
            #expect(ControlCommand("flag set n=\(text)") == nil, "\(text.prefix(30))")
            #expect(ControlCommand.problem("flag set n=\(text)")?.contains("send it as text") == true, "\(text.prefix(30))")
        }
        #expect(ControlCommand("flag set n=1e3") == .setFlag("n", .double(1000)))
        #expect(ControlCommand("flag set n=007") == .setFlag("n", .string("007")))
    }

    /// An environment layer cannot refuse: a number it cannot keep stays the text written, never a rounded number.
    @Test func anEnvironmentLayerKeepsTheText() {
        let layer = FlagStack.Layer.environment(prefix: "APP_", ["APP_A": "2e-324", "APP_B": "1e3", "APP_C": "-0"])
        #expect(layer.values["A"] == .string("2e-324"))
        #expect(layer.values["B"] == .double(1000))
        #expect(layer.values["C"] == .string("-0"))
    }
}
