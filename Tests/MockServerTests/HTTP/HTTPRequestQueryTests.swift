import AutomationSupport
import Testing

@testable import MockServer

/// Query parameters split as WireMock splits them: at every `&` and at the first `=` of a pair, then decoded.
@Suite struct HTTPRequestQueryTests {
    private func items(_ target: String) -> [String] {
        HTTPRequest(method: "GET", target: target).queryItems.map { "\($0.name)=\($0.value)" }
    }

    @Test func pairsSplitAtAmpersandsAndTheFirstEquals() {
        #expect(items("/p") == [])
        #expect(items("/p?") == [])
        // An empty piece is a parameter "" of value "", as WireMock's splitter keeps it (r9a B9).
        #expect(items("/p?a=1&&b=&=c&d&e=f=g") == ["a=1", "=", "b=", "=c", "d=", "e=f=g"])
        #expect(items("/p?&") == ["=", "="])
        #expect(items("/p?a=1&") == ["a=1", "="])
        #expect(items("/p?tag=a&tag=b") == ["tag=a", "tag=b"])
        #expect(items("/p?q=a+b%20c%2B&%41=%zz") == ["q=a b c+", "A=%zz"])
        // An ampersand before a combining mark still splits (a Character split would not see it).
        #expect(items("/p?a=1&\u{301}b=2") == ["a=1", "\u{301}b=2"])
        // Nor does a `?` before one: the query starts there (it was read as part of the path).
        #expect(items("/p?\u{301}a=1") == ["\u{301}a=1"])
        #expect(HTTPRequest(method: "GET", target: "/p?\u{301}a=1#x").path == "/p")
        #expect(items("/p?é=ü&x=%C3%A9") == ["é=ü", "x=é"])
        // A `%` without two hex digits after it stays as written; decoded bytes that are not UTF-8 read as U+FFFD.
        #expect(items("/p?a=%4&b=%&c=%%41&d=%FF") == ["a=%4", "b=%", "c=%A", "d=\u{FFFD}"])
    }

    /// The split on the request's bytes against a plain reading of the rule (every `&`, the first `=`, `%XX` and `+`
    /// decoded), over random queries made of the characters that matter.
    @Test func randomQueriesSplitAsThePlainRuleSplitsThem() {
        let pieces = ["a", "=", "&", "%", "+", "2", "F", "b", "é", "\u{301}", "%41", "%e9", "%C3%A9", "%zz"]
        var random = SplitMix64(seed: 28)
        for _ in 0..<2_000 {
            let query = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let expected = Self.plainSplit(query).map { "\($0.0)=\($0.1)" }
            #expect(items("/p?" + query) == expected, "query \(query.debugDescription)")
        }
    }

    private static func plainSplit(_ query: String) -> [(String, String)] {
        func decode(_ bytes: ArraySlice<UInt8>) -> String {
            var out: [UInt8] = []
            var index = bytes.startIndex
            while index < bytes.endIndex {
                if bytes[index] == 0x25, index + 2 < bytes.endIndex, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                    out.append(high * 16 + low)
                    index += 3
                } else {
                    out.append(bytes[index] == 0x2B ? 0x20 : bytes[index])
                    index += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x37
            case 0x61...0x66: byte - 0x57
            default: nil
            }
        }
        guard !query.isEmpty else { return [] }
        return Array(query.utf8).split(separator: 0x26, omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: 0x3D) else { return (decode(pair), "") }
            return (decode(pair[..<equals]), decode(pair[(equals + 1)...]))
        }
    }
}
