/// The `key=value` form (`-f n=2`, a step's `Given the feature flag "n" is "2"`, the Host library's `flag set n=2`):
/// which texts are numbers. One rule: a text JSON reads as a number (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)?`)
/// is a number, and one that would not arrive as written (a decimal a Double rounds, underflows to 0 or cannot hold,
/// an integer past 64 bits, `-0`) is refused with the words `key:=JSON` uses; any other text is text (`007`, `+1`,
/// `.5`, `0x10`, `1_000`, ` 5`). A number split two ways (`2e-324` text, `4.9e-324` refused) was r5c finding 5.
extension DecimalLiteral {
    /// How `key=value`'s value reads.
    package enum Inference: Equatable, Sendable {
        /// Not a JSON number: sent as the text.
        case text
        /// A whole number that fits 64 bits (`42`, `-3`).
        case integer(Int)
        /// A decimal whose Double is its value (`1.5`, `1e3`, `-0.0`).
        case decimal(Double)
        /// A JSON number that would not arrive as written, and why (``roundingProblem(_:reads:)``, ``rangeProblem(_:)``,
        /// ``widthProblem(_:)``, ``integerProblem(_:)``).
        case refused(String)
    }

    /// How `text`, written as `key=text`, reads (see the extension's rule).
    package static func inferred(_ text: String) -> Inference {
        guard let integral = jsonNumberShape(text) else { return .text }
        if integral {
            guard let whole = Int(text) else { return .refused(widthProblem(text)) }
            if let problem = integerProblem(text) { return .refused(problem) }
            return .integer(whole)
        }
        guard let number = Double(text), number.isFinite else { return .refused(rangeProblem(text)) }
        if let problem = roundingProblem(text, reads: number) { return .refused(problem) }
        return .decimal(number)
    }

    /// Whether `text` is a JSON number (nil when not), and whether it is written as a whole number (no `.`, no exponent).
    /// ASCII bytes only: Arabic-Indic or fullwidth digits, spaces, NUL and a BOM are not digits here.
    static func jsonNumberShape(_ text: String) -> Bool? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let start = index
        let whole = digits()
        guard whole > 0, whole == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            integral = false
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            integral = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        return index == bytes.count ? integral : nil
    }
}
