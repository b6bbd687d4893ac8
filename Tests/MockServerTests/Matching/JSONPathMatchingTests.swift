import AutomationSupport
import Testing

@testable import MockServer

/// `matchesJsonPath` as WireMock 2.35 decides it (observed against the jar: WireMockDifferentialTests runs the
/// same cases there when Java is installed; these keep them where it is not).
@Suite struct JSONPathMatchingTests {
    private func matches(_ path: String, _ matcher: ValueMatcher?, _ body: String) throws -> Bool {
        try JSONPath(path).matches(try? JSONParser.parse(body), matcher)
    }

    /// R4a-7: a filter compares text as Jayway's Java Strings do, unit by unit: `'café'` (U+00E9) does not match "cafe"
    /// + U+0301 (Swift's == follows canonical equivalence, so the filter alone matched it), nor does a key lookup.
    @Test func filtersCompareTextCodePointByCodePoint() throws {
        let decomposed = #"{"n": "café"}"#
        #expect(try !matches("$[?(@.n == 'caf\u{E9}')]", nil, decomposed))
        #expect(try matches("$[?(@.n != 'caf\u{E9}')]", nil, decomposed))
        #expect(try matches("$[?(@.n == 'caf\u{E9}')]", nil, #"{"n": "caf\u00e9"}"#))
        #expect(try matches("$[?(@.n < 'cafz')]", nil, decomposed))
        #expect(try !matches("$..caf\u{E9}", nil, #"{"a": {"cafe\u0301": 1}}"#))
        #expect(try !matches("$.caf\u{E9}", nil, #"{"cafe\u0301": 1}"#))
    }

    /// Found by a hostile review: `$..*` was read as a key named "*" (Jayway: every descendant), so it matched
    /// almost nothing and its `absent` form matched bodies full of values.
    @Test func everyDescendantIsRefusedByName() throws {
        #expect { try JSONPath("$..*") } throws: { "\($0)".contains("every descendant") }
        // Several names in one bracket were read as one name holding quotes, which never matched (r7a F4).
        for path in ["$['a','c']", "$[\"a\", \"c\"]", "$.x['a' , 'c']"] {
            #expect { try JSONPath(path) } throws: { "\($0)".contains("names several members; match each with its own ['name']") }
        }
        #expect(try JSONPath("$['a,c']").steps.count == 1)
    }

    /// Found in a real mapping set (stackrox/stackrox-mcp, RealSets): Jayway's `=~ /regex/` filters were refused at
    /// load. As the 2.35 jar answers: the whole text must match; numbers and booleans read as Java prints them, and
    /// null, arrays, objects and a missing field as the empty text; `i` ignores case; `.` stops at a line break.
    @Test func regexFiltersMatchTheWholeTextAsJaywayDoes() throws {
        let cve = "$.q[?(@.query =~ /.*CVE.*/)]"
        for (body, found) in [
            (#"{"q": {"query": "CVE:2021"}}"#, true), (#"{"q": [{"query": "xCVE"}]}"#, true), (#"{"q": {"query": "cve-1"}}"#, false),
            (#"{"q": {"query": ["CVE"]}}"#, false), (#"{"q": {"query": "a\nCVE"}}"#, false), (#"{"q": {"other": 1}}"#, false),
        ] {
            #expect(try matches(cve, nil, body) == found, "\(body)")
        }
        #expect(try matches("$.q[?(@.query =~ /cve.*/i)]", nil, #"{"q": {"query": "CVE:2021"}}"#))
        #expect(try !matches("$.q[?(@.query =~ /cve.*/i)]", nil, #"{"q": {"query": "x CVE"}}"#))
        for body in [#"{"q": {"other": 1}}"#, #"{"q": {"query": null}}"#, #"{"q": {"query": 15}}"#, #"{"q": {"query": true}}"#] {
            #expect(try matches("$.q[?(@.query =~ /.*/)]", nil, body), "\(body)")
        }
        for (body, found) in [(#"{"n": 1.5}"#, true), (#"{"n": 10}"#, true), (#"{"n": "1a"}"#, true), (#"{"n": [1]}"#, false)] {
            #expect(try matches("$[?(@.n =~ /1.*/)]", nil, body) == found, "\(body)")
        }
        // A regex may hold what reads as another operator; flags Java has and this engine does not are refused.
        #expect(try matches("$[?(@.s =~ /a==b<c/)]", nil, #"{"s": "a==b<c"}"#))
        #expect { try JSONPath("$[?(@.s =~ /a/x)]") } throws: { "\($0)".contains("flags \"x\"") }
        #expect { try JSONPath("$[?(@.s =~ /(a)\\1/)]") } throws: { "\($0)".contains("regex") }
    }

    /// Seen in a public project's mappings: a filter whose path holds indexes (`@.r.s[0].a[2].v`) was cut at its
    /// first `]` and refused at load.
    /// The attack's find: `=~` over 150,000 elements took 27 s of CPU. Each element's text is counted in the budget:
    /// a body whose texts pass it is no match, and one within it still matches.
    @Test func regexFiltersCountTheirTextInTheBudget() throws {
        let path = "$..items[?(@.name =~ /a.*b/)]"
        let name = String(repeating: "a", count: 42) + "N"
        let big =
            "{\"items\": [" + Array(repeating: "{\"name\": \"\(name)\"}", count: 30_000).joined(separator: ",") + ",{\"name\": \"ab\"}]}"
        #expect(try !matches(path, nil, big))
        let small =
            "{\"items\": [" + Array(repeating: "{\"name\": \"\(name)\"}", count: 1_000).joined(separator: ",") + ",{\"name\": \"ab\"}]}"
        #expect(try matches(path, nil, small))
    }

    /// Finding F-R (classes 1, 2, 7): filter numbers compared as Doubles let a stub for one id answer another. Jayway
    /// compares BigDecimals; each case below was asked of WireMock 2.35.1 (matching_script.py holds them too).
    @Test func filterNumbersCompareExactlyAsJaywaysBigDecimal() throws {
        #expect(try !matches("$[?(@.id == 9007199254740993)]", nil, #"[{"id": 9007199254740992}]"#))
        #expect(try matches("$[?(@.id == 9007199254740993)]", nil, #"[{"id": 9007199254740993}]"#))
        #expect(try !matches("$[?(@.id != 9007199254740993)]", nil, #"[{"id": 9007199254740993}]"#))
        #expect(try !matches("$[?(@.id == 12345678901234567890)]", nil, #"[{"id": 12345678901234567000}]"#))
        #expect(try matches("$[?(@.id > 12345678901234567890)]", nil, #"[{"id": 12345678901234570000}]"#))
        #expect(try !matches("$[?(@.id > 12345678901234567890)]", nil, #"[{"id": 9223372036854775807}]"#))
        #expect(try matches("$[?(@.id < -9223372036854775807)]", nil, #"[{"id": -9223372036854775808}]"#))
        #expect(try matches("$[?(@.n == 1.0)]", nil, #"[{"n": 1}]"#))
        #expect(try matches("$[?(@.n <= 0.3)]", nil, #"[{"n": 3e-1}]"#))
        #expect(try !matches("$[?(@.n <= 0.3)]", nil, #"[{"n": 0.30000000000000004}]"#))
        #expect(try matches("$[?(@.n >= -0.0)]", nil, #"[{"n": 0}]"#))
        #expect(try matches("$[?(@.n < 1e300)]", nil, #"[{"n": 9223372036854775807}]"#))
    }

    @Test func filtersTestPathsWithIndexes() throws {
        let path = #"$[?(@.r.s[0].a[2].v == "12345")]"#
        let body = #"{"r": {"s": [{"a": [{}, {}, {"v": "12345"}]}]}}"#
        #expect(try matches(path, nil, body))
        #expect(try !matches(path, nil, #"{"r": {"s": [{"a": [{"v": "12345"}]}]}}"#))
        #expect(try matches("$.a[?(@['b'][-1] =~ /x.*/)]", nil, #"{"a": [{"b": [1, "xy"]}]}"#))
        #expect { try JSONPath("$[?(@.a[*].b == 1)]") } throws: { "\($0)".contains("names and indexes") }
        #expect { try JSONPath("$[?(@.a.size() == 1)]") } throws: { "\($0)".contains("functions") }
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
            // A definite path that finds an array of nulls finds something (WireMock 2.35 matches; r7a F4).
            (#"{"name": [null]}"#, true), (#"{"name": [null, null]}"#, true), (#"{"name": [[]]}"#, true),
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
