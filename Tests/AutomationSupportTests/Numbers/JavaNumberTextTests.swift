import Testing

@testable import AutomationSupport

/// `Double.toString` as Java 17 prints it (each expected text printed by `java`), shortest digits that read back.
@Suite struct JavaNumberTextTests {
    @Test func doublesPrintAsJavaPrintsThem() {
        let cases: [(Double, String)] = [
            (1.0, "1.0"), (100.0, "100.0"), (1e7, "1.0E7"), (9_999_999.0, "9999999.0"), (0.001, "0.001"), (0.0001, "1.0E-4"),
            (1.5e300, "1.5E300"),
            (-0.0, "-0.0"), (0.0, "0.0"), (.nan, "NaN"), (.infinity, "Infinity"), (-.infinity, "-Infinity"),
            (.leastNonzeroMagnitude, "4.9E-324"),
            (.greatestFiniteMagnitude, "1.7976931348623157E308"), (0.1 + 0.2, "0.30000000000000004"), (123_456_789.0, "1.23456789E8"),
            (2e-3, "0.002"), (1.0e-5, "1.0E-5"), (12345.678, "12345.678"), (-1.25e-7, "-1.25E-7"), (1e21, "1.0E21"), (1e22, "1.0E22"),
            (3.5, "3.5"),
            (-2.5, "-2.5"),
        ]
        for (value, text) in cases { #expect(JavaNumberText.double(value) == text, "\(value)") }
        for value in stride(from: -1e10, through: 1e10, by: 1.234567e8) {
            let text = JavaNumberText.double(value / 7)
            #expect(Double(text) == value / 7, "\(text)")
        }
    }
}
