import Testing

@testable import AutomationSupport

@Suite struct BoundedNumberTests {
    /// HOSTILE.md's values that kill: none traps, each is read or refused as the rule says.
    static let hostile = [
        "0", "-1", "-0", "NaN", "nan", "inf", "-inf", "1e300", "1e-300", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "0x10", "1_000", " 5",
        "5 ", "", "+5", "-", ".", "1e", "1e+", String(repeating: "9", count: 10_000), "٣", "5\u{0}",
    ]

    @Test func integersAreDigitsInRange() {
        let full = Int.min...Int.max
        #expect(BoundedNumber.integer("0", in: full) == 0)
        #expect(BoundedNumber.integer("-0", in: full) == 0)
        #expect(BoundedNumber.integer("-1", in: 0...10) == nil)
        #expect(BoundedNumber.integer("9223372036854775807", in: full) == Int.max)
        #expect(BoundedNumber.integer("-9223372036854775808", in: full) == Int.min)
        for text in ["9223372036854775808", "-9223372036854775809", "0x10", "1_000", " 5", "5 ", "", "+5", "-", "1e3", "1.0", "nan", "٣"] {
            #expect(BoundedNumber.integer(text, in: full) == nil, "\(text)")
        }
        #expect(BoundedNumber.integer(String(repeating: "0", count: 10_000) + "1", in: full) == nil)
    }

    @Test func decimalsAreFiniteAndInRange() {
        let any = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        #expect(BoundedNumber.decimal("1.5", in: any) == 1.5)
        #expect(BoundedNumber.decimal("-2", in: any) == -2)
        #expect(BoundedNumber.decimal("1e3", in: any) == 1000)
        #expect(BoundedNumber.decimal(".5", in: any) == 0.5)
        #expect(BoundedNumber.decimal("1e-300", in: any) == 1e-300)
        #expect(BoundedNumber.decimal("1e300", in: 0...1e9) == nil)
        for text in ["NaN", "nan", "inf", "-inf", "infinity", "0x10", "1e", "1e+", ".", "-", "", " 5", "5 ", "1e999", "1_0"] {
            #expect(BoundedNumber.decimal(text, in: any) == nil, "\(text)")
        }
    }

    @Test func computedDoublesBecomeIntegersWithoutTrapping() {
        let range = -1_000...1_000
        #expect(BoundedNumber.integer(12.9, in: range) == 12)
        #expect(BoundedNumber.integer(-12.9, in: range) == -12)
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e18, 1_000.5 + 1] {
            #expect(BoundedNumber.integer(value, in: range) == nil, "\(value)")
        }
        #expect(BoundedNumber.integer(9.3e18, in: Int.min...Int.max) == nil)
        #expect(BoundedNumber.integer(-9.223372036854775808e18, in: Int.min...Int.max) == Int.min)
    }

    @Test func everyHostileValueIsReadOrRefusedNeverTrapped() {
        for text in Self.hostile {
            _ = BoundedNumber.integer(text, in: 0...100)
            _ = BoundedNumber.decimal(text, in: 0...100)
            if let double = Double(text) { _ = BoundedNumber.integer(double, in: 0...100) }
        }
        #expect(throws: NumberError.self) { try BoundedNumber.requireInteger("1e300", in: 0...1_000) }
        do { _ = try BoundedNumber.requireInteger("nan", in: 0...1_000) } catch {
            #expect(error.description == "'nan' is not a whole number from 0 to 1000")
        }
    }
}
