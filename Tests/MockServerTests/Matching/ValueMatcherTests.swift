import AutomationSupport
import Testing

@testable import MockServer

/// The string matchers as WireMock 2.35 decides them (observed on the jar first).
@Suite struct ValueMatcherTests {
    /// Found beside the real mapping sets: Swift's `==` and `contains` treat canonically equivalent text as equal
    /// (`é` and `e` + U+0301), so `equalTo "café"` matched a client's `cafe\u{301}` and `contains "e"` missed it.
    /// Java compares code units, and WireMock answers the other way round in both cases.
    @Test func textComparesCodePointByCodePointAsJavaDoes() throws {
        let decomposed = "cafe\u{301}"
        #expect(try !Mappings.matcher(#"{"equalTo": "caf\#u{e9}"}"#).matches(decomposed))
        #expect(try Mappings.matcher(#"{"equalTo": "caf\#u{e9}"}"#).matches("caf\u{e9}"))
        #expect(try Mappings.matcher(#"{"contains": "e"}"#).matches(decomposed))
        #expect(try !Mappings.matcher(#"{"contains": "e"}"#).matches("caf\u{e9}"))
        #expect(try !Mappings.matcher(#"{"doesNotContain": "e"}"#).matches(decomposed))
        #expect(try Mappings.matcher(#"{"equalTo": "CAF\#u{c9}", "caseInsensitive": true}"#).matches("caf\u{e9}"))
        #expect(try !Mappings.matcher(#"{"equalTo": "caf\#u{e9}", "caseInsensitive": true}"#).matches(decomposed))
    }

    /// A body's JSON is parsed once for all its JSON patterns; the answers are the ones each pattern gives alone.
    @Test func jsonBodyPatternsShareOneParse() throws {
        let server = try Mappings.server(
            #"""
            {"method": "POST", "urlPath": "/j", "bodyPatterns": [{"equalToJson": {"id": 1, "items": [1, 2]}, "ignoreArrayOrder": true, "ignoreExtraElements": true},
             {"matchesJsonPath": {"expression": "$.id", "equalTo": "1"}}, {"matchesJsonPath": {"expression": "$.x", "absent": true}}]}
            """#)
        func ask(_ body: String) -> Bool { Mappings.ask(server, method: "POST", "/j", body: Array(body.utf8)).matched }
        #expect(ask(#"{"items": [2, 1], "id": 1}"#))
        #expect(!ask(#"{"items": [2, 1], "id": 2}"#))
        #expect(!ask(#"{"items": [2, 1], "id": 1, "x": 3}"#))
        #expect(!ask("not json"))
        #expect(!ask(""))
    }
}
