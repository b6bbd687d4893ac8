package import AutomationHost
import AutomationSupport

/// One `key=value` or `key:=JSON` assignment from the command line.
package struct FlagAssignment: Sendable, Hashable {
    /// The flag's name.
    package var key: String
    /// Its value (`key=value` gives a string, number or boolean as it reads; `key:=JSON` any JSON).
    package var value: FlagValue

    /// `key` set to `value`.
    package init(key: String, value: FlagValue) {
        self.key = key
        self.value = value
    }

    /// Parses `key=value` (value inferred: true/false, integers, decimals, else a string) or `key:=JSON`
    /// (any JSON literal).
    /// - Throws: a one-line reason naming the token.
    package static func parse(_ token: String) throws(UsageError) -> FlagAssignment {
        guard let equals = token.firstIndex(of: "=") else {
            throw UsageError("'\(token)' is not key=value or key:=JSON (e.g. skipPreActiveCheck=true, retries:=3)")
        }
        var key = String(token[..<equals])
        let text = String(token[token.index(after: equals)...])
        let isJSON = key.hasSuffix(":")
        if isJSON { key.removeLast() }
        guard !key.isEmpty else { throw UsageError("'\(token)' has an empty key; write key=value") }
        guard isJSON else {
            // A decimal is sent as its Double: one whose digits the Double does not keep would change in silence.
            if let problem = FlagValue.inferredProblem(key: key, text: text) { throw UsageError(problem) }
            return FlagAssignment(key: key, value: FlagValue.inferred(from: text))
        }
        do {
            return FlagAssignment(key: key, value: FlagValue(try JSONParser.parse(exactIntegers: text)))
        } catch {
            // A long value is quoted by its start: a 10,000-digit token made a 20 KB message.
            let value = text.count > 80 ? text.prefix(40) + "…" : text
            // `key=value` is offered only where it gives what was written (`n=1e400` is refused too).
            let plain = FlagValue.inferredProblem(key: key, text: text) == nil ? ", or use \(key)=\(value)" : ""
            let hint =
                text.first.map { "\"[{".contains($0) } == false ? " (a JSON string needs quotes: \(key):='\"\(value)\"'\(plain))" : ""
            let shown = token.count > 80 ? token.prefix(60) + "…(\(token.count) characters)" : token
            throw UsageError("'\(shown)': the value after := is not JSON: \(error.message)\(hint)")
        }
    }
}

/// The flags of one kind collected from the command line, remembering where each key came from so that
/// a repeated key can name both occurrences.
package struct FlagCollector {
    let kind: String
    package private(set) var values: [String: FlagValue] = [:]
    private var origins: [String: String] = [:]

    package init(kind: String) { self.kind = kind }

    package mutating func add(_ assignment: FlagAssignment, origin: String) throws(UsageError) {
        if let earlier = origins[assignment.key] {
            throw UsageError("\(kind) \"\(assignment.key)\" is given twice: \(earlier) and \(origin); keep one")
        }
        origins[assignment.key] = origin
        values[assignment.key] = assignment.value
    }
}
