import ProcessEngine
import Scenarios

/// `--define NAME=VALUE` (`-D`) for `test` and `check`: one value per name, a name `${NAME}` can spell.
enum DefineOptions {
    /// The values by name. A name is a letter or `_`, then letters, digits and `_` (as a shell variable's); a
    /// name given twice is refused naming both; a value may be empty (an empty argument), but not PROGRAM's. No error
    /// quotes a value (it may be a secret, and errors reach stderr and `--report`): the option, the name and the
    /// argument's index say which (``ParsedOption/originHidingValue(name:)``).
    static func parse<Option>(_ options: [ParsedOption<Option>]) throws(UsageError) -> [String: String] {
        var defines: [String: String] = [:]
        var origins: [String: String] = [:]
        for option in options {
            let text = option.value ?? ""
            guard let equals = text.firstIndex(of: "=") else { throw UsageError(.notNameValue(option.spelling, index: option.index)) }
            let name = String(text[..<equals])
            let value = String(text[text.index(after: equals)...])
            guard isName(name) else {
                throw UsageError(.invalidDefineName(option.spelling, name: name, index: option.index))
            }
            let origin = option.originHidingValue(name: name)
            if let earlier = origins[name] {
                throw UsageError(.givenTwice("\(option.spelling) \(name)", first: earlier, second: origin))
            }
            // The run sets these for each scenario: a -D would change ${NAME} in steps but not the program's variable.
            if StepVariables.runOwned.contains(name) { throw UsageError(.builtInDefine(origin, name: name)) }
            if name == "PROGRAM" && value.isEmpty { throw UsageError(.emptyProgramDefine(origin: origin)) }
            defines[name] = value
            origins[name] = origin
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
