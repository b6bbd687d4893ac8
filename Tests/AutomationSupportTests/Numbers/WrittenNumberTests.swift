import Testing

@testable import AutomationSupport

/// ``BoundedNumber/written(_:in:)``: the one reader of a whole number a person writes in an option, a tag or a step
/// (r5c finding 10: `--retries -0`, `--retries 01` and `@retries=-0` were read, `--jobs -0` was not).
@Suite struct WrittenNumberTests {
    /// HOSTILE.md class 1 and the step rule's own cases: none is read, none traps.
    static let refused = [
        "", "+", "-", "+0", "-0", "00", "01", "007", "-00", "+5", "-1", "0x10", "1e3", "1E3", "1.0", "1.", ".5", "1_000", " 5", "5 ",
        "\t5", "5\n", "\u{A0}5", "nan", "NaN", "inf", "9223372036854775808", "18446744073709551616", "٣", "۳", "３", "5\u{0}", "\u{0}",
        "\u{FEFF}5", String(repeating: "9", count: 10_000), String(repeating: "0", count: 10_000) + "1", "1e300", "1e-300",
    ]

    @Test(arguments: refused)
    func whatIsNotBareDigitsIsRefused(text: String) {
        #expect(BoundedNumber.written(text, in: 0...Int.max) == nil, "\(text.prefix(20).debugDescription)")
    }

    @Test func bareDigitsInRangeAreRead() {
        #expect(BoundedNumber.written("0", in: 0...10) == 0)
        #expect(BoundedNumber.written("10", in: 0...10) == 10)
        #expect(BoundedNumber.written("11", in: 0...10) == nil)
        #expect(BoundedNumber.written("0", in: 1...10) == nil)
        #expect(BoundedNumber.written("9223372036854775807", in: 0...Int.max) == Int.max)
        // A range below 0 takes a `-`, never on a zero or before a leading zero.
        #expect(BoundedNumber.written("-5", in: -10...10) == -5)
        #expect(BoundedNumber.written("-9223372036854775808", in: Int.min...0) == Int.min)
        for text in ["-0", "-05", "--5", "+5", "-", "-9223372036854775809"] {
            #expect(BoundedNumber.written(text, in: Int.min...Int.max) == nil, "\(text)")
        }
    }

    @Test func theRefusalSaysTheRuleInOneWording() {
        for text in ["-0", "01", "1e3", "11", ""] {
            #expect(throws: NumberError.self) { try BoundedNumber.requireWritten(text, in: 0...10) }
            do {
                _ = try BoundedNumber.requireWritten(text, in: 0...10)
            } catch {
                #expect(error.description == "'\(text)' is not a whole number from 0 to 10 (bare digits: no sign, no leading zero)")
            }
        }
        // The text is cut at 40 characters: 10,000 digits make a short message.
        do {
            _ = try BoundedNumber.requireWritten(String(repeating: "9", count: 10_000), in: 0...10)
        } catch {
            #expect(error.description.count < 120)
        }
    }

    /// A decimal option (`--coverage-threshold`) and a duration's numbers: the whole part as a whole number is written.
    @Test func writtenDecimalsKeepTheRuleForTheWholePart() {
        #expect(BoundedNumber.writtenDecimal("80", in: 0...100) == 80)
        #expect(BoundedNumber.writtenDecimal("72.5", in: 0...100) == 72.5)
        #expect(BoundedNumber.writtenDecimal("0", in: 0...100) == 0)
        #expect(BoundedNumber.writtenDecimal("0.05", in: 0...100) == 0.05)
        #expect(BoundedNumber.writtenDecimal("100.0", in: 0...100) == 100)
        for text in Self.refused + ["080", "00.5", "-1", "101", "1e1", "80%", "0.", "1..2", "1.2.3", "1.-2"] where text != "1.0" {
            #expect(BoundedNumber.writtenDecimal(text, in: 0...100) == nil, "\(text.prefix(20).debugDescription)")
        }
    }

    /// A duration's numbers follow the rule too: `05s`, `00`, `.5s` were read as 5 s, 0 and 0.5 s.
    @Test(arguments: ["00", "05", "05s", "1m05s", "00.5s", ".5s", "5.s", "-0", "+1s", "٣s", "３s", "5\u{0}s", " 5s"])
    func durationsRefuseWhatWholeNumbersRefuse(text: String) {
        #expect(DurationParser.parse(text) == nil, "\(text.debugDescription)")
    }

    @Test func durationsKeepTheirWrittenForms() {
        #expect(DurationParser.parse("0") == .zero)
        #expect(DurationParser.parse("0s") == .zero)
        #expect(DurationParser.parse("0.5s") == .milliseconds(500))
        #expect(DurationParser.parse("1m30s") == .seconds(90))
        #expect(DurationParser.parse("10ms") == .milliseconds(10))
        #expect(DurationParser.parse("1m0s") == .seconds(60))
    }
}
