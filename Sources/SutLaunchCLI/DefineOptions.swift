import ProcessEngine
import Scenarios
/// `--define NAME=VALUE` (`-D`) for `test` and `check`: one value per name, a name `${NAME}` can spell.
enum DefineOptions {
    /// The values by name. A name is a letter or `_`, then letters, digits and `_` (as a shell variable's); a
    /// name given twice is refused naming both; a value may be empty (an empty argument), but not PROGRAM's.
    static func parse(_ options: [ParsedOption]) throws(UsageError) -> [String: String] {
        var defines: [String: String] = [:]
        var origins: [String: String] = [:]
        for option in options {
            let text = option.value ?? ""
            guard let equals = text.firstIndex(of: "=") else { throw UsageError("\(option.spelling) '\(text)' is not NAME=VALUE") }
            let name = String(text[..<equals]), value = String(text[text.index(after: equals)...])
            guard isName(name) else {
                throw UsageError("\(option.spelling) '\(text)': \(name.isEmpty ? "no name before =" : "'\(name)' is not a name")"
                    + " (a letter or _, then letters, digits or _)")
            }
            if let earlier = origins[name] { throw UsageError("\(option.spelling) \(name) is given twice: \(earlier) and \(option.origin); keep one") }
            if name == "PROGRAM" && value.isEmpty { throw UsageError("\(option.origin): PROGRAM= names no program") }
            defines[name] = value
            origins[name] = option.origin
        }
        return defines
    }

    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) }
    }
}
