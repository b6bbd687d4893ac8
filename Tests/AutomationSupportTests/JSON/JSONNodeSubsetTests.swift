import Testing

@testable import AutomationSupport

/// Which expected JSON values a subset match could never fail on (C15: `{}` and `{"items": []}` passed on any body).
@Suite struct JSONNodeSubsetTests {
    @Test(arguments: ["{}", "[]", #"{"items": []}"#, #"{"a": {"b": {}}, "c": []}"#])
    func aValueNamingNothingIncludesNothing(_ text: String) throws {
        #expect(try JSONParser.parse(text).includesNothing)
    }

    @Test(arguments: [#"{"a": 1}"#, #"{"items": [3]}"#, #"{"items": [], "user": "ada"}"#, "[{}]", "null", "0", #""""#, "false"])
    func aValueNamingSomethingCanFail(_ text: String) throws {
        #expect(try !JSONParser.parse(text).includesNothing)
    }
}
