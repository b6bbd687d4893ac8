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
        let node: JSONNode
        do {
            node = try JSONParser.parse(exactIntegers: text)
        } catch {
            // A long value is quoted by its start: a 10,000-digit token made a 20 KB message.
            let value = text.count > 80 ? text.prefix(40) + "…" : text
            // `key=value` is offered only where it gives what was written (`n=1e400` is refused too).
            let plain = FlagValue.inferredProblem(key: key, text: text) == nil ? ", or use \(key)=\(value)" : ""
            let hint =
                text.first.map { "\"[{".contains($0) } == false ? " (a JSON string needs quotes: \(key):='\"\(value)\"'\(plain))" : ""
            throw UsageError("'\(Self.shown(token))': the value after := is not JSON: \(error.message)\(hint)")
        }
        let value = FlagValue(node)
        // The program receives the value inside the flags object, one level deeper, and the Host library reads at
        // most 128 levels: a value 128 deep was accepted here and emptied the whole kind there, exit 0 (r6a-7).
        if Self.depth(of: value) > Self.maxValueDepth {
            throw UsageError(
                "'\(Self.shown(token))': nesting deeper than \(Self.maxValueDepth) levels: the program receives it inside the "
                    + "flags object, which the Host library reads to \(Self.maxValueDepth + 1) levels; put deep data in a file")
        }
        return FlagAssignment(key: key, value: value)
    }
}

extension FlagAssignment {
    /// The deepest a `key:=JSON` value may be nested: the object sent (`{"key":VALUE}`) is one level more, and the
    /// Host library's reader stops at 128.
    package static let maxValueDepth = 127

    /// A long token quoted by its start.
    static func shown(_ token: String) -> String {
        token.count > 80 ? token.prefix(60) + "…(\(token.count) characters)" : token
    }

    /// Levels of arrays and objects in `value` (a scalar is 0, `[]` is 1), counted without recursion.
    static func depth(of value: FlagValue) -> Int {
        var deepest = 0
        var pending: [(FlagValue, Int)] = [(value, 0)]
        while let (next, level) = pending.popLast() {
            switch next {
            case .array(let values):
                deepest = max(deepest, level + 1)
                pending += values.map { ($0, level + 1) }
            case .object(let members):
                deepest = max(deepest, level + 1)
                pending += members.values.map { ($0, level + 1) }
            default: break
            }
        }
        return deepest
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
