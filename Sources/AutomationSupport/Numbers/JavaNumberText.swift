/// Numbers written as Java writes them, for output that must read as a Java server's does (WireMock's templates):
/// `Double.toString` (`3.0`, `0.25`, `1.5E7`, `1.0E-4`, shortest digits that read back the same).
package enum JavaNumberText {
    /// The shortest decimal digits of a finite, non-zero `value` and where the point goes: the value is
    /// `0.d1d2…dn × 10^exponent` (for 1.5: digits `15`, exponent 1).
    package static func digits(of value: Double) -> (digits: [UInt8], exponent: Int) {
        // Swift's description is the shortest text that reads back the same: "1.5e-07", "15000000.0", "0.001".
        let text = Array(abs(value).description.utf8)
        var mantissa = text[...]
        var exponent = 0
        if let e = text.firstIndex(of: UInt8(ascii: "e")) {
            mantissa = text[..<e]
            var rest = text[(e + 1)...]
            var sign = 1
            if rest.first == UInt8(ascii: "-") { sign = -1 }
            if rest.first == UInt8(ascii: "-") || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
            exponent = sign * rest.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        var digits: [UInt8] = []
        var pointAt = mantissa.count
        for byte in mantissa {
            if byte == UInt8(ascii: ".") {
                pointAt = digits.count
                continue
            }
            digits.append(byte)
        }
        exponent += pointAt
        while digits.first == UInt8(ascii: "0") && digits.count > 1 {
            digits.removeFirst()
            exponent -= 1
        }
        while digits.last == UInt8(ascii: "0") && digits.count > 1 { digits.removeLast() }
        return (digits, exponent)
    }

    /// `Double.toString(value)`: plain from 10^-3 to below 10^7 (`100.0`, `0.001`), else `d.dddE±n` (`1.0E7`).
    package static func double(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        // The one value whose shortest digits Java 17 does not print: it writes two digits for the smallest subnormal.
        if abs(value) == .leastNonzeroMagnitude { return value < 0 ? "-4.9E-324" : "4.9E-324" }
        let (digits, exponent) = self.digits(of: value)
        let sign = value < 0 ? "-" : ""
        let magnitude = abs(value)
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if exponent <= 0 {
                return sign + "0." + String(repeating: "0", count: -exponent) + String(decoding: digits, as: UTF8.self)
            }
            let whole =
                digits.count > exponent
                ? Array(digits[..<exponent]) : digits + Array(repeating: UInt8(ascii: "0"), count: exponent - digits.count)
            let fraction = digits.count > exponent ? Array(digits[exponent...]) : [UInt8(ascii: "0")]
            return sign + String(decoding: whole, as: UTF8.self) + "." + String(decoding: fraction, as: UTF8.self)
        }
        let fraction = digits.count > 1 ? Array(digits[1...]) : [UInt8(ascii: "0")]
        return sign + String(decoding: [digits[0]], as: UTF8.self) + "." + String(decoding: fraction, as: UTF8.self) + "E"
            + String(exponent - 1)
    }
}
