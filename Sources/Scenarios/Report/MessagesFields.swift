/// What ``MessagesReader`` reads of each envelope: the members named, each with what it reads of its value (of
/// each element, when the value is an array); a member with nil reads its value whole. ``MessagesLine`` checks
/// the other members and skips them without building them.
///
/// A reader that starts using a member must name it here, or it reads as absent: `MessagesReaderFastPathTests`
/// compares the fast path with a whole parse over every envelope the reader reads.
final class MessagesFields: Sendable {
    /// One member: its name, as bytes and as the node's key, and what is read of its value.
    struct Field: Sendable {
        let key: [UInt8]
        /// The name's length and first 8 bytes, compared before the bytes (no reference counted on a miss).
        let tag: MessagesLine.KeyTag
        let name: String
        let keep: MessagesFields?
        /// For an envelope: no report reads it (checked and skipped, not built).
        var skip = false

        init(_ name: String, keep: MessagesFields?) {
            self.key = Array(name.utf8)
            self.tag = key.withUnsafeBufferPointer { MessagesLine.KeyTag($0) }
            self.name = name
            self.keep = keep
        }
    }

    let fields: [Field]

    init(_ fields: KeyValuePairs<String, MessagesFields?>) {
        self.fields = fields.map { Field($0.key, keep: $0.value) }
    }

    private static let steps = MessagesFields(["steps": MessagesFields(["id": nil, "keyword": nil])])
    private static let timestamp = MessagesFields(["seconds": nil, "nanos": nil])
    private static let read: KeyValuePairs<String, MessagesFields?> = [
        "gherkinDocument": MessagesFields([
            "uri": nil,
            "feature": MessagesFields([
                "name": nil,
                "children": MessagesFields([
                    "background": steps, "scenario": steps,
                    "rule": MessagesFields(["children": MessagesFields(["background": steps, "scenario": steps])]),
                ]),
            ]),
        ]),
        "pickle": MessagesFields([
            "id": nil, "uri": nil, "name": nil, "location": MessagesFields(["line": nil]), "tags": MessagesFields(["name": nil]),
            "steps": MessagesFields([
                "id": nil, "text": nil, "astNodeIds": nil,
                "argument": MessagesFields([
                    "docString": MessagesFields(["content": nil]),
                    "dataTable": MessagesFields(["rows": MessagesFields(["cells": MessagesFields(["value": nil])])]),
                ]),
            ]),
        ]),
        "hook": MessagesFields(["id": nil, "name": nil]),
        "meta": MessagesFields(["protocolVersion": nil]),
        "parseError": MessagesFields(["source": MessagesFields(["uri": nil, "location": MessagesFields(["line": nil])]), "message": nil]),
        "testCase": MessagesFields([
            "id": nil, "pickleId": nil, "testSteps": MessagesFields(["id": nil, "hookId": nil, "pickleStepId": nil]),
        ]),
        "testCaseStarted": MessagesFields(["id": nil, "testCaseId": nil, "attempt": nil]),
        "testStepFinished": MessagesFields([
            "testCaseStartedId": nil, "testStepId": nil,
            "testStepResult": MessagesFields(["status": nil, "message": nil, "duration": timestamp]),
        ]),
        "attachment": MessagesFields(["testCaseStartedId": nil, "fileName": nil, "mediaType": nil, "body": nil, "contentEncoding": nil]),
        "testCaseFinished": MessagesFields(["testCaseStartedId": nil, "willBeRetried": nil]),
        "testRunStarted": MessagesFields(["id": nil, "timestamp": timestamp]),
        "testRunFinished": MessagesFields([
            "success": nil, "timestamp": timestamp, "message": nil, "exception": MessagesFields(["type": nil, "message": nil]),
        ]),
    ]

    /// Every envelope of ``MessagesReader/Envelope``: those no report reads are skipped, the rare ones the reader
    /// ignores today are read whole (a reader that starts using them finds them there).
    static let envelopes: [Field] = envelopeKinds.map { kind in
        let name = kind.rawValue
        if let keep = read.first(where: { $0.key == name })?.value { return Field(name, keep: keep) }
        var envelope = Field(name, keep: nil)
        envelope.skip = MessagesReader.skipped.contains(kind)
        return envelope
    }

    /// The envelope of each of ``envelopes``, in its order.
    static let envelopeKinds = MessagesReader.Envelope.allCases
}
