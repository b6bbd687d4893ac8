import AutomationSupport
import Testing

@testable import MockServer

/// Attack 1, F6: `${json-unit.regex}`, `${json-unit.any-boolean}` and `${json-unit.ignore-element}` were compared as
/// literal text. Each case below was asked of WireMock 2.35.1 (its answer: matched or not).
@Suite struct JSONPlaceholderTests {
    static let cases: [(String, String, Bool)] = [
        (#"{"b": "${json-unit.regex}[0-9]+"}"#, #"{"b": "123"}"#, true), (#"{"b": "${json-unit.regex}[0-9]+"}"#, #"{"b": "12a"}"#, false),
        (#"{"b": "${json-unit.regex}[0-9]+"}"#, #"{"b": 123}"#, false), (#"{"b": "${json-unit.regex}[0-9]+"}"#, #"{"b": "x123"}"#, false),
        (#"{"b": "${json-unit.regex}a.c"}"#, #"{"b": "a\nc"}"#, false), (#"{"b": "${json-unit.regex}a.c"}"#, #"{"b": "abcd"}"#, false),
        (#"{"a": "${json-unit.any-boolean}"}"#, #"{"a": true}"#, true), (#"{"a": "${json-unit.any-boolean}"}"#, #"{"a": "true"}"#, false),
        (#"{"a": "${json-unit.any-boolean}"}"#, #"{"a": 1}"#, false), (#"{"a": "${json-unit.any-boolean}"}"#, #"{"a": null}"#, false),
        (#"{"a": "${json-unit.ignore-element}", "z": 1}"#, #"{"a": {"q": [1]}, "z": 1}"#, true),
        (#"{"a": "${json-unit.ignore-element}", "z": 1}"#, #"{"z": 1}"#, true),
        (#"{"a": "${json-unit.ignore-element}", "z": 1}"#, #"{"z": 1, "y": 2}"#, false),
        (#"[1, "${json-unit.ignore-element}", 3]"#, "[1, {}, 3]", true), (#"[1, "${json-unit.ignore-element}", 3]"#, "[1, 3]", false),
        (#"[1, "${json-unit.ignore-element}", 3]"#, "[1, 2, 2, 3]", false),
        (#"{"a": "${json-unit.ignore}", "z": 1}"#, #"{"z": 1}"#, false),
        (#"{"a": "${json-unit.ignore}", "z": 1}"#, #"{"a": null, "z": 1}"#, true),
        (##"{"b": "#{json-unit.any-string}"}"##, #"{"b": "q"}"#, true), (##"{"b": "#{json-unit.any-string}"}"##, #"{"b": 1}"#, false),
        (#"{"b": "${json-unit.foo}"}"#, #"{"b": "${json-unit.foo}"}"#, true), (#"{"b": "${json-unit.foo}"}"#, #"{"b": "x"}"#, false),
    ]

    @Test(arguments: cases)
    func placeholdersMatchAsInWireMock(expected: String, body: String, matches: Bool) throws {
        let server = try Mappings.server(#"{"method": "POST", "url": "/p", "bodyPatterns": [{"equalToJson": \#(expected)}]}"#)
        #expect(Mappings.ask(server, method: "POST", "/p", body: Array(body.utf8)).matched == matches)
    }

    /// WireMock never matches a named matcher it is not given, and answers 500 for a pattern that does not compile.
    @Test func whatWireMockCannotUseIsRefusedAtLoad() {
        let named = Mappings.problem(#"{"bodyPatterns": [{"equalToJson": {"b": "${json-unit.matches:foo}x"}}]}"#)
        #expect(named?.contains("${json-unit.matches:foo} is not supported by sut-launch") == true, "\(named ?? "loaded")")
        let pattern = Mappings.problem(#"{"bodyPatterns": [{"equalToJson": [{"b": "${json-unit.regex}["}]}]}"#)
        #expect(pattern?.contains("equalToJson: ${json-unit.regex}[:") == true, "\(pattern ?? "loaded")")
    }
}
