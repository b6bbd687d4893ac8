import AutomationSupport

extension MessagesReader {
    /// A line ``MessagesLine`` did not read, parsed whole: its envelope, nil for a blank line, or what is wrong with it.
    static func parse(_ line: ArraySlice<UInt8>, at place: Place, last: Bool) throws(Problem) -> (key: Envelope, value: JSONNode)? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { return nil }
        let node: JSONNode
        do { node = try JSONParser.parse(Array(line), repairingUTF8: true) } catch {
            if let cr = line.firstIndex(of: 0x0D), line[(cr + 1)...].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                throw Problem(
                    description:
                        "\(place): lines end in CR alone (not LF or CRLF): Messages are one envelope per LF-ended line; convert with tr '\\r' '\\n'"
                )
            }
            // The column is the byte in the line (1 for its first): a line is one JSON value, its own line 1.
            let at = error.position.line == 1 ? "\(place):\(error.position.column)" : "\(place)"
            throw Problem(description: "\(at): not JSON: \(error.message)\(last ? " (the file ends mid-line: truncated?)" : "")")
        }
        guard let members = node.members, members.count == 1 else {
            throw Problem(description: "\(place): not a Cucumber Messages envelope (one object with one key)")
        }
        let key = members[0].key
        guard let envelope = Envelope(rawValue: key) else {
            throw Problem(description: "\(place): unknown envelope \"\(key.prefix(80))\": not Cucumber Messages 27?")
        }
        return (envelope, members[0].value)
    }

    /// Where an envelope stands, `file:line` in messages: written out only for an error (not once per line).
    struct Place: CustomStringConvertible {
        let file: String
        let line: Int
        var description: String { "\(file):\(line)" }
    }

    /// The envelopes of Cucumber Messages 27 (others are an error: a file of something else, or a newer protocol). The
    /// handlers switch on it, not on the name (a String switch compared names one case after the other). The most
    /// frequent come first: ``MessagesLine`` looks a line's envelope up in this order.
    enum Envelope: String, CaseIterable, Sendable {
        case testStepFinished, testStepStarted, testCaseStarted, testCaseFinished, attachment, testCase, pickle, gherkinDocument
        case source, stepDefinition, hook, parameterType, suggestion, meta, parseError, testRunStarted, testRunFinished
        case testRunHookStarted, testRunHookFinished, externalAttachment, undefinedParameterType
    }

    /// Envelopes no report reads (the feature's text, step definitions, step starts: most of a file's bytes):
    /// checked, not built.
    static let skipped: Set<Envelope> = [.source, .stepDefinition, .parameterType, .testStepStarted, .suggestion]

    /// A run id from a file, as a message shows it: control characters escaped, at most 200 characters.
    static func shown(_ id: String) -> String {
        let escaped = id.escapingControlCharacters()
        return escaped.count <= 200 ? escaped : escaped.prefix(200) + "…"
    }
}
