import AutomationSupport

/// `${NAME}` in a JSON doc string (`… answers 200 with JSON:`, `… with JSON body:`): inside a string it is text (a
/// value holding `"` or `}` stays inside its string); standing as a value (`{"id": ${ID}}`) its value must itself be
/// one JSON value (`42`, `true`, `[1, 2]`), put in whole: it can never add a member or end the document.
extension StepVariables {
    /// What `${NAME}` could not be, standing as a JSON value.
    package struct JSONValueError: Error, CustomStringConvertible {
        package let description: String
    }

    /// JSON `text` with each `${NAME}` substituted: inside strings (keys and values) as text; standing as a value, by
    /// its value read as one JSON value.
    /// - Throws: the parser's error when `text` is not JSON once each value-standing `${NAME}` is a value (the parser
    ///   bounds its depth, so the walk is bounded), or ``JSONValueError`` for a value that is no JSON value.
    package static func substituteInJSON(_ text: String, _ value: (String) -> String) throws -> String {
        guard text.contains("${") else { return text }
        let (document, bare) = withBareValuesAsNull(text)
        var failure: JSONValueError?
        func walk(_ node: JSONNode) -> JSONNode {
            var node = node
            switch node.value {
            case .string(let string): node.value = .string(substitute(string, value))
            case .array(let elements): node.value = .array(elements.map(walk))
            case .object(let members):
                node.value = .object(
                    members.map { JSONNode.Member(key: substitute($0.key, value), keyPosition: $0.keyPosition, value: walk($0.value)) })
            case .null:
                guard let name = bare[node.position] else { break }
                let written = value(name)
                do { return try JSONParser.parse(written) } catch {
                    failure = failure ?? JSONValueError(description: bareValueProblem(name, written))
                }
            case .bool, .int, .double: break
            }
            return node
        }
        let result = walk(try JSONParser.parse(document))
        if let failure { throw failure }
        return JSONWriter.write(result)
    }

    /// Why a JSON doc string is not JSON, checked when the file loads, with each `${NAME}` standing as a value read as
    /// `null` (its value is checked when the step runs) and each inside a string left as text; nil when it is JSON.
    package static func jsonDocumentProblem(_ text: String) -> String? {
        do { _ = try JSONParser.parse(withBareValuesAsNull(text).document) } catch {
            return "the doc string is not JSON: \(error)"
                + (text.contains("${") ? " (with each ${NAME} standing as a value read as null)" : "")
        }
        return nil
    }

    /// The JSON document to check with `${NAME}` standing as a value (outside strings) replaced by `null`.
    package static func documentForCheck(_ text: String) -> String { withBareValuesAsNull(text).document }

    private static func bareValueProblem(_ name: String, _ written: String) -> String {
        let shown = written.count > 40 ? written.prefix(40) + "…" : Substring(written)
        return "${\(name)} stands as a JSON value in the doc string, but its value \(JSONWriter.quoted(String(shown))) is no JSON value "
            + "(a number, true, false, null, an object or an array); write \"${\(name)}\" for a string"
    }

    /// `text` with each `${NAME}` outside a JSON string replaced by `null`, and where each such `null` stands in the
    /// new text (the parser's line and column), with its name.
    private static func withBareValuesAsNull(_ text: String) -> (document: String, bare: [SourcePosition: String]) {
        guard text.contains("${") else { return (text, [:]) }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var bare: [SourcePosition: String] = [:]
        var line = 1
        var lineStart = 0
        var inString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                output.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    output.append(bytes[index + 1])
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{"),
                let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}"))
            {
                bare[SourcePosition(line: line, column: output.count - lineStart + 1)] = String(
                    decoding: bytes[(index + 2)..<close], as: UTF8.self)
                output += Array("null".utf8)
                index = close
            } else {
                output.append(byte)
                if byte == UInt8(ascii: "\"") { inString = true }
                if byte == 0x0A {
                    line += 1
                    lineStart = output.count
                }
            }
            index += 1
        }
        return (String(decoding: output, as: UTF8.self), bare)
    }
}
