/// The one way sut-launch reads a number that comes from input: a request, a stub or feature file, a flag, an
/// option, a variable. Each reading names the range the code that uses the number can do arithmetic in, so
/// nothing downstream can trap: out of range, NaN, infinities and malformed text are `nil` (or a
/// `NumberError` that says which), never a crash.
///
/// What is a number here: ASCII decimal digits with an optional leading `-`, and for decimals one `.` and an
/// exponent (`1.5`, `-2`, `1e3`). Not: spaces around it, `+`, `_`, hex, `nan`, `inf`, an empty string, more
/// than 400 characters. Callers that want something more lenient say so themselves.
package enum BoundedNumber {
    /// The longest text read as a number: long enough for any Double written out in full, short enough that
    /// 10,000 digits are refused without being parsed.
    static let maxLength = 400

    /// A whole number in `range`, written in decimal digits with an optional leading `-`.
    package static func integer(_ text: some StringProtocol, in range: ClosedRange<Int>) -> Int? {
        guard isInteger(text) else { return nil }
        guard let value = Int(text) else { return nil } // more than Int holds
        return range.contains(value) ? value : nil
    }

    /// A finite number in `range`: an integer, a decimal or one with an exponent.
    package static func decimal(_ text: some StringProtocol, in range: ClosedRange<Double>) -> Double? {
        guard isDecimal(text), let value = Double(String(text)), value.isFinite else { return nil }
        return range.contains(value) ? value : nil
    }

    /// A Double from computed input (a template's arithmetic, a JSON number) as a whole number in `range`,
    /// rounded toward zero; nil for NaN, the infinities and anything outside the range. `Int(double)` traps
    /// on those: call this instead wherever the Double came from input.
    package static func integer(_ value: Double, in range: ClosedRange<Int>) -> Int? {
        guard value.isFinite else { return nil }
        let truncated = value.rounded(.towardZero)
        // Compare as Doubles first: Int(truncated) would trap past ±2^63.
        guard truncated >= Double(range.lowerBound), truncated <= Double(range.upperBound) else { return nil }
        let whole = Int(truncated)
        return range.contains(whole) ? whole : nil
    }

    /// `integer(text, in:)` that says what was wrong, for error messages: `'1e300' is not a whole number
    /// from 0 to 1000`.
    package static func requireInteger(_ text: some StringProtocol, in range: ClosedRange<Int>) throws(NumberError) -> Int {
        guard let value = integer(text, in: range) else {
            throw NumberError(text: String(text.prefix(40)), range: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A whole number a person wrote in an option, a tag or a step (`--jobs 4`, `--retries 2`, `@retries=2`,
    /// `--shard 1/4`, `the exit code is 0`): bare ASCII digits, no sign (a `-` only for a range that goes below 0),
    /// no leading zero, in `range`. `-0`, `+0`, `00`, `01` are 0 and 1 to a number parser and rarely what was meant,
    /// so they are refused as ` 5`, `1e3`, `0x10` and `٣` are. The one reader of such numbers: the step numbers and
    /// the command line's share it, and with it its words (r5c finding 10).
    package static func written(_ text: some StringProtocol, in range: ClosedRange<Int>) -> Int? {
        let bytes = Substring(text).utf8
        let signed = range.lowerBound < 0 && bytes.first == UInt8(ascii: "-")
        let digits = signed ? bytes.dropFirst() : bytes[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            digits.first != UInt8(ascii: "0") || (digits.count == 1 && !signed)
        else { return nil }
        return integer(text, in: range)
    }

    /// A decimal a person wrote in an option or a duration (`80`, `72.5`, `0.5`): the whole part as ``written(_:in:)``
    /// reads one (no sign, no leading zero), then optionally `.` and digits; not `05`, `.5`, `5.`, `1e1`, in `range`.
    package static func writtenDecimal(_ text: some StringProtocol, in range: ClosedRange<Double>) -> Double? {
        let bytes = Substring(text).utf8
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let whole = bytes.prefix(while: isDigit)
        guard !whole.isEmpty, whole.first != UInt8(ascii: "0") || whole.count == 1 else { return nil }
        let rest = bytes.dropFirst(whole.count)
        guard rest.isEmpty || (rest.first == UInt8(ascii: ".") && rest.count > 1 && rest.dropFirst().allSatisfy(isDigit)) else {
            return nil
        }
        return decimal(text, in: range)
    }

    /// `written(text, in:)` that says what was wrong, in the one wording: `'01' is not a whole number from 0 to 10
    /// (bare digits: no sign, no leading zero)`.
    package static func requireWritten(_ text: some StringProtocol, in range: ClosedRange<Int>) throws(NumberError) -> Int {
        guard let value = written(text, in: range) else {
            throw NumberError(
                text: String(text.prefix(40)),
                range: "a whole number from \(range.lowerBound) to \(range.upperBound) (bare digits: no sign, no leading zero)")
        }
        return value
    }

    /// `decimal(text, in:)` that says what was wrong.
    package static func requireDecimal(_ text: some StringProtocol, in range: ClosedRange<Double>) throws(NumberError) -> Double {
        guard let value = decimal(text, in: range) else {
            throw NumberError(
                text: String(text.prefix(40)), range: "a number from \(format(range.lowerBound)) to \(format(range.upperBound))")
        }
        return value
    }

    private static func isInteger(_ text: some StringProtocol) -> Bool {
        var bytes = Substring(text).utf8[...]
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        return !bytes.isEmpty && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// `-?digits(.digits)?([eE][-+]?digits)?`, also `.5` and `5.`; nothing else (Double() alone also takes
    /// `nan`, `inf`, hex and leading spaces on some platforms).
    private static func isDecimal(_ text: some StringProtocol) -> Bool {
        // The length first: a template comparing a 900 KB text copied it whole at each try (3.5 s for one answer).
        guard text.utf8.count <= maxLength else { return false }
        let bytes = Array(Substring(text).utf8)
        guard !bytes.isEmpty else { return false }
        var index = 0
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
            digits += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) {
                index += 1
                digits += 1
            }
        }
        guard digits > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            var exponentDigits = 0
            while index < bytes.count, isDigit(bytes[index]) {
                index += 1
                exponentDigits += 1
            }
            guard exponentDigits > 0 else { return false }
        }
        return index == bytes.count
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// A number from input that is malformed or out of the range its reader allows.
package struct NumberError: Error, CustomStringConvertible {
    /// The text as given (its first 40 characters).
    package let text: String
    /// What was expected: `a whole number from 0 to 1000`.
    package let range: String
    package var description: String { "'\(text)' is not \(range)" }
}
