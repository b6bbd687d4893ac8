import ProcessEngine
import Scenarios

/// `--define NAME=VALUE` (`-D`) for `test` and `check`: one value per name, a name `${NAME}` can spell.
enum DefineOptions {
    /// The values by name. A name is a letter or `_`, then letters, digits and `_` (as a shell variable's); a
    /// name given twice is refused naming both; a value may be empty (an empty argument), but not PROGRAM's.
    static func parse<Option>(_ options: [ParsedOption<Option>]) throws(UsageError) -> [String: String] {
        var defines: [String: String] = [:]
        var origins: [String: String] = [:]
        for option in options {
            let text = option.value ?? ""
            guard let equals = text.firstIndex(of: "=") else { throw UsageError(.notNameValue(option.spelling, value: text)) }
            let name = String(text[..<equals])
            let value = String(text[text.index(after: equals)...])
            guard isName(name) else {
                throw UsageError(.invalidDefineName(option.spelling, value: text, name: name))
            }
            if let earlier = origins[name] {
                throw UsageError(.givenTwice("\(option.spelling) \(name)", first: earlier, second: option.origin))
            }
            // The run sets these for each scenario: a -D would change ${NAME} in steps but not the program's variable.
            if StepVariables.runOwned.contains(name) { throw UsageError(.builtInDefine(option.origin, name: name)) }
            if name == "PROGRAM" && value.isEmpty { throw UsageError(.emptyProgramDefine(origin: option.origin)) }
            defines[name] = value
            origins[name] = option.origin
        }
        return defines
    }

    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
        }
    }
}
