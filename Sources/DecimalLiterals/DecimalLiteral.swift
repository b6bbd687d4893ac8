/// The one rule for a number written as text that a flag or a control command carries (`-f k=1.5`, `-f k:=1e2`, a
/// flags file, the Host library's `flag set k:=…`): it arrives as the value written or it is refused, never rounded or
/// stripped of its sign in silence. A leaf module with no dependency and no Foundation, so that the Host library
/// (which imports nothing else of ours) and the package's toolbox share this code rather than two copies of it.
package enum DecimalLiteral {
    /// A decimal literal's value as sign, significant digits and exponent (`-1.50e2` and `-150` alike), or nil past
    /// nine exponent digits. Two literals with the same value give the same triple; zero is always unsigned here.
    package static func value(_ text: String) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var fraction = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                fraction = true
            } else {
                digits.append(byte)
                if fraction { exponent -= 1 }
            }
        }
        if !bytes.isEmpty {
            let written = bytes.dropFirst()
            guard written.count <= 10, let value = Int(String(decoding: written, as: UTF8.self)) else { return nil }
            exponent += value
        }
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        return digits.isEmpty ? (false, [], 0) : (negative, digits, exponent)
    }

    /// Whether the two literals are the same decimal value (false when either is not read).
    package static func same(_ first: String, _ second: String) -> Bool {
        guard let one = value(first), let other = value(second) else { return false }
        return one.negative == other.negative && one.digits == other.digits && one.exponent == other.exponent
    }

    /// Why the decimal literal `text`, which a Double reads as the finite `number`, would not arrive as written: nil
    /// when the Double is its value (`1e2`, `1.50`, `-0.0`), else `the number 1e-400 has more digits than a double
    /// keeps (it would read as 0.0)` (R4a-9: `1e-400` and `1.0000000000000000001` must not become 0 and 1).
    package static func roundingProblem(_ text: String, reads number: Double) -> String? {
        if same(text, number.description) { return nil }
        return "the number \(text.prefix(40)) has more digits than a double keeps (it would read as \(number))"
    }

    /// What follows a refusal of a number in JSON (`k:=…`, a flags file): how to send the text instead.
    package static let asTextHint = "; write it as a string (\"…\")"

    /// Why the decimal literal `text` reads as no finite Double: `the number 1e400 is out of range`.
    package static func rangeProblem(_ text: String) -> String { "the number \(text.prefix(40)) is out of range" }

    /// Why the whole-number literal `text` is no 64-bit integer: `the integer 9223372036854775808 does not fit in 64 bits`.
    package static func widthProblem(_ text: String) -> String {
        let shown = text.count > 40 ? text.prefix(20) + "…(\(text.count) digits)" : Substring(text)
        return "the integer \(shown) does not fit in 64 bits"
    }

    /// Why the whole-number literal `text` would not arrive as written: `-0` (or `-00…`) is the integer 0, its sign
    /// gone; nil for any other. A negative zero is a Double, written `-0.0`.
    package static func integerProblem(_ text: String) -> String? {
        guard text.first == "-", text.dropFirst().allSatisfy({ $0 == "0" }) else { return nil }
        return "the integer \(text.prefix(40)) is 0 and would lose its sign; write 0, or -0.0 for a negative zero"
    }
}
