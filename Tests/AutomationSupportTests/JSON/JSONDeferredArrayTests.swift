import Testing

@testable import AutomationSupport

/// `parse(_:deferringArrayAt:)` against the whole parse: the same tree with every position, and no document
/// accepted that the whole parse refuses.
@Suite struct JSONDeferredArrayTests {
    /// The whole parse's tree, rebuilt from a deferred parse: each deferred element parsed and put back.
    static func reassembled(_ bytes: [UInt8], key: String) throws(JSONParser.Error) -> JSONNode {
        let (root, deferred) = try JSONParser.parse(bytes, deferringArrayAt: key)
        guard let deferred else { return root }
        var elements: [JSONNode] = []
        for index in 0..<deferred.count { elements.append(try deferred.element(index)) }
        let array = JSONNode(.array(elements), at: deferred.position)
        guard case .object(var members) = root.value else { return array }
        for index in members.indices where members[index].key == key && members[index].value.position == deferred.position {
            members[index].value = array
        }
        return JSONNode(.object(members), at: root.position)
    }

    static let documents = [
        #"{"routes": [{"method": "GET", "path": "/a", "json": {"x": [1, 2, {"y": "]}"}]}}, 7, "s", true, null, [], {}]}"#,
        "[\n  {\"path\": \"/a\\\"]\",\n   \"body\": \"\\\\\"},\r\n  {\"a\": [[[]]], \"b\": -1.5e3}\n  ,\"\\u00e9\"\n]",
        "\u{FEFF}{\"unexpected\": \"fail\",\n\"routes\":\n[\n1,\n2\n]\n,\"x\": {\"routes\": [3]}}",
        #"{"routes": []}"#,
        #"{"routes": {"not": "an array"}}"#,
        #"{"other": [1, 2]}"#,
        #"["é🚀", {"ключ": "значение"}, "\ud83d\ude80"]"#,
        "7",
    ]

    @Test(arguments: documents)
    func givesTheWholeParsesTreeWithItsPositions(text: String) throws {
        let bytes = Array(text.utf8)
        #expect(try Self.reassembled(bytes, key: "routes") == JSONParser.parse(bytes))
    }

    @Test func defersTheRootArrayOrTheRootMemberOnly() throws {
        let nested = try JSONParser.parse(Array(#"{"x": {"routes": [1]}, "routes": [2, 3]}"#.utf8), deferringArrayAt: "routes")
        #expect(nested.deferred?.count == 2)
        #expect(nested.root["x"]?["routes"]?.elements?.count == 1)
        #expect(try nested.deferred?.element(1).value == .int(3))
        let bare = try JSONParser.parse(Array("[1,\n {\"a\": 2}]".utf8), deferringArrayAt: "routes")
        #expect(bare.deferred?.count == 2)
        #expect(try bare.deferred?.element(1).position == SourcePosition(line: 2, column: 2))
        #expect(try JSONParser.parse(Array(#"{"routes": "no"}"#.utf8), deferringArrayAt: "routes").deferred == nil)
    }

    @Test(arguments: [
        "[1,]", "[1 2]", "[{]", "[{\"a\": [}]", "[\"abc]", "[\"a\nb\"]", "{\"routes\": [1, 2}", "[1] x", "[,1]", "[tru]",
        "{\"routes\": [1], \"routes\": [2]}", "[" + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "]",
    ])
    func refusesWhatTheWholeParseRefuses(text: String) {
        let bytes = Array(text.utf8)
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(bytes) }
        #expect(throws: JSONParser.Error.self) { try Self.reassembled(bytes, key: "routes") }
    }

    /// Thousands of one-byte changes to valid documents: the deferred parse accepts exactly what the whole parse
    /// accepts, and builds the same tree.
    @Test func agreesWithTheWholeParseOnMutatedDocuments() throws {
        var random = SplitMix64(seed: 0x5EED)
        let alphabet = Array(#"{}[]",:\ 0123456789.-+eEtrufalsn"#.utf8) + [0x0A, 0x09, 0x01, 0xC3, 0xA9]
        var accepted = 0
        var refused = 0
        for document in Self.documents {
            let original = Array(document.utf8)
            for _ in 0..<600 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let position = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[position] = alphabet.randomElement(using: &random)!
                    case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: position)
                    default: if bytes.count > 1 { bytes.remove(at: position) }
                    }
                }
                let whole = Result { () throws(JSONParser.Error) in try JSONParser.parse(bytes) }
                let deferred = Result { () throws(JSONParser.Error) in try Self.reassembled(bytes, key: "routes") }
                switch (whole, deferred) {
                case (.success(let expected), .success(let actual)):
                    #expect(actual == expected, "\(String(decoding: bytes, as: UTF8.self))")
                    accepted += 1
                case (.failure, .failure): refused += 1
                default: Issue.record("the two parses disagree on \(String(decoding: bytes, as: UTF8.self)): \(whole) vs \(deferred)")
                }
            }
        }
        // Both outcomes are exercised, so the comparison cannot pass by refusing (or accepting) everything.
        #expect(accepted > 300 && refused > 300)
    }
}
