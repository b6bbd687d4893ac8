import AutomationSupport
import Testing

@testable import MockServer

/// `matchesJsonPath` as WireMock 2.35 decides it (observed against the jar: WireMockDifferentialTests runs the
/// same cases there when Java is installed; these keep them where it is not).
@Suite struct JSONPathMatchingTests {
    private func matches(_ path: String, _ matcher: ValueMatcher?, _ body: String) throws -> Bool {
        try JSONPath(path).matches(try? JSONParser.parse(body), matcher)
    }

    /// Found by a hostile review: `$..*` was read as a key named "*" (Jayway: every descendant), so it matched
    /// almost nothing and its `absent` form matched bodies full of values.
    @Test func everyDescendantIsRefusedByName() {
        #expect { try JSONPath("$..*") } throws: { "\($0)".contains("every descendant") }
    }

    /// Attack 1, F5: with `equalToJson`, a deep scan was compared element by element and a string holding JSON was
    /// parsed; WireMock compares what was found written as JSON, whole. Each case asked of WireMock 2.35.1.
    @Test func equalToJsonSeesWhatWasFoundAsOneJSONValue() throws {
        let json = { (text: String) in
            ValueMatcher.equalToJSON(try JSONParser.parse(text), ignoreArrayOrder: false, ignoreExtraElements: false)
        }
        let cases: [(String, String, String, Bool)] = [
            ("$..c", "[1,2]", #"{"c": [1, 2]}"#, false), ("$..c", "[1,2]", #"{"x": {"c": [1, 2]}}"#, false),
            ("$..c", "[1,2]", #"{"c": 1, "d": {"c": 2}}"#, true), ("$.a", #"{"x":1}"#, #"{"a": "{"x":1}"}"#, false),
            ("$.a", #"{"x":1}"#, #"{"a": {"x": 1}}"#, true), ("$.n", "1", #"{"n": 1}"#, true), ("$.n", "1", #"{"n": "1"}"#, false),
            ("$.s", #""abc""#, #"{"s": "abc"}"#, true), ("$.z", "null", #"{"z": null}"#, true), ("$.z", "null", "{}", true),
            ("$.arr", "[1,2]", #"{"arr": [1, 2]}"#, true), ("$.arr[*]", "[1,2]", #"{"arr": [1, 2]}"#, true),
            ("$.arr[*]", "[1,2]", #"{"arr": [2, 1]}"#, false), ("$.n", "1", #"{"n": 1.0}"#, true),
        ]
        for (path, expected, body, matched) in cases {
            #expect(try matches(path, try json(expected), body) == matched, "\(path) \(expected) \(body)")
        }
    }

    @Test func withoutAMatcherNullAndEmptyAreNotFound() throws {
        for (body, found) in [
            (#"{"name": 0}"#, true), (#"{"name": ""}"#, true), (#"{"name": false}"#, true), (#"{"name": null}"#, false),
            (#"{"name": {}}"#, false), (#"{"name": []}"#, false), ("{}", false), ("not json", false),
        ] {
            #expect(try matches("$.name", nil, body) == found, "\(body)")
        }
        // An indefinite path finds whatever its list holds, nulls included.
        #expect(try matches("$.a[*]", nil, #"{"a": [null]}"#))
        #expect(try !matches("$.a[*]", nil, #"{"a": []}"#))
    }

    @Test func absentHoldsForNothingNullAnEmptyArrayOrABodyThatIsNotJSON() throws {
        for (body, absent) in [
            ("{}", true), (#"{"name": null}"#, true), (#"{"name": []}"#, true), ("not json", true),
            (#"{"name": "x"}"#, false), (#"{"name": {}}"#, false),
        ] {
            #expect(try matches("$.name", .absent(true), body) == absent, "\(body)")
        }
    }

    @Test func arraysOfPlainValuesCountElementByElementAndNumbersReadAsJavaPrintsThem() throws {
        let ada = ValueMatcher.equalTo("ada", caseInsensitive: false)
        #expect(try matches("$.name", ada, #"{"name": ["bob", "ada"]}"#))
        #expect(try !matches("$.name", ada, #"{"name": [["ada"]]}"#))
        #expect(try !matches("$.name", ada, #"{"name": null}"#))
        #expect(try matches("$.n", .equalTo("1", caseInsensitive: false), #"{"n": [1]}"#))
        #expect(try !matches("$.n", .equalTo("1", caseInsensitive: false), #"{"n": 1.0}"#))
        #expect(try matches("$.n", .equalTo("1.0E7", caseInsensitive: false), #"{"n": 1e7}"#))
        #expect(try matches("$.o", .contains("ad", caseInsensitive: false), #"{"o": {"ad": 1}}"#))
    }

    @Test(arguments: [
        (1.0, "1.0"), (0.5, "0.5"), (1e7, "1.0E7"), (123456789.0, "1.23456789E8"), (1.5e-5, "1.5E-5"),
        (0.001, "0.001"), (0.0001, "1.0E-4"), (-2.5e16, "-2.5E16"), (1234567.5, "1234567.5"), (0, "0.0"),
    ])
    func doublesReadAsJavaPrintsThem(number: Double, text: String) {
        #expect(JSONPath.javaText(number) == text)
    }
}
