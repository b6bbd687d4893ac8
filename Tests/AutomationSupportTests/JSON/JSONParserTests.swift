import Testing

@testable import AutomationSupport

@Suite struct JSONParserTests {
    @Test func parsesEveryTypeWithPositions() throws {
        let node = try JSONParser.parse("{\n  \"a\": [1, -2.5e1, true, false, null],\n  \"b\": \"x\\n\\u00e9\\ud83d\\ude80\"\n}")
        #expect(node.position == SourcePosition(line: 1, column: 1))
        let members = try #require(node.members)
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[1].keyPosition == SourcePosition(line: 3, column: 3))
        #expect(node["a"]?.elements?.map(\.value) == [.int(1), .double(-25), .bool(true), .bool(false), .null])
        #expect(node["b"]?.string == "x\né🚀")
    }

    @Test(arguments: [
        ("0", JSONNode.Value.int(0)), ("-0", .int(0)), ("7", .int(7)), ("-42", .int(-42)),
        ("999999999999999999", .int(999_999_999_999_999_999)), ("-99999999999999999", .int(-99_999_999_999_999_999)),
        ("9223372036854775807", .int(Int.max)), ("-9223372036854775808", .int(Int.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)), ("1.5", .double(1.5)), ("2e3", .double(2000)),
    ])
    func integersAreExactAtEveryLength(text: String, expected: JSONNode.Value) throws {
        #expect(try JSONParser.parse(text).value == expected)
    }

    /// A number no Double holds is written back as written (a stub's jsonBody as WireMock sends it, R8B-11); one a
    /// Double holds is written as before, and integers within 64 bits exactly.
    @Test(arguments: [
        ("18446744073709551615", "18446744073709551615"), ("-98765432109876543210", "-98765432109876543210"), ("1e-400", "1e-400"),
        ("0.30000000000000001", "0.30000000000000001"), ("9007199254740993", "9007199254740993"), ("1.50", "1.5"), ("1e2", "100"),
        ("0.1", "0.1"), ("[1.5e300, 12345678901234567890.5]", "[1.5e+300,12345678901234567890.5]"),
    ])
    func numbersNoDoubleHoldsAreWrittenAsWritten(text: String, written: String) throws {
        #expect(JSONWriter.write(try JSONParser.parse(text)) == written)
    }

    @Test(arguments: [
        ("{\"a\":1,}", "1:8: trailing comma before '}'"),
        ("[1,]", "1:4: trailing comma before ']'"),
        ("{\"a\" 1}", "1:6: expected ':' after \"a\", found '1'"),
        ("{\"a\":1 \"b\":2}", "1:8: expected ',' or '}' after the value of \"a\", found '\"'"),
        ("{'a':1}", "1:2: expected a member name in double quotes, found '''"),
        ("[01]", "1:2: numbers cannot have leading zeros"),
        ("\"abc", "1:1: unterminated string"),
        ("{\"a\":1,\n\"a\":2}", "2:1: duplicate key \"a\" (first at line 1, column 2)"),
        ("", "1:1: expected a JSON value, found end of file"),
        ("[1] x", "1:5: unexpected 'x' after the JSON value"),
        ("{\"a\": tru}", "1:7: expected a JSON value, found 't'"),
        ("\"a\\qb\"", "1:3: invalid escape '\\q' in a string"),
    ])
    func reportsErrorsWithLineAndColumn(text: String, expected: String) {
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(text) }
    }

    @Test func writerRoundTrips() throws {
        let text = #"{"b":[1,2.5,"q\"\\\n\u0001"],"a":{"n":null,"t":true}}"#
        #expect(JSONWriter.write(try JSONParser.parse(text)) == text)
    }

    @Test func suggestionsFindTyposOnly() {
        #expect(Suggestion.nearest(to: "--flgs", among: ["--flag", "--env", "--flags-file"]) == "--flag")
        #expect(Suggestion.nearest(to: "stauts", among: ["status", "body", "headers"]) == "status")
        #expect(Suggestion.nearest(to: "zzzzzz", among: ["status", "body"]) == nil)
        #expect(Suggestion.editDistance("ab", "ba") == 1)
    }

    @Test func editDistanceIsBoundedAndExactBelowTheBound() {
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance(String(repeating: "é", count: 300), String(repeating: "é", count: 299) + "e") == 1)
        // Past 512 characters the rest counts by its length: a megabyte against a megabyte is one small table.
        let long = String(repeating: "x", count: 1 << 20)
        #expect(Suggestion.editDistance(long, long + "yz") == 2)
        #expect(Suggestion.editDistance("/a", "/" + long) == 1 << 20)
    }
}

@Suite struct DurationTests {
    @Test(arguments: [
        ("500ms", 0.5), ("30s", 30), ("2m", 120), ("1.5h", 5400), ("1m30s", 90), ("1h2m3.5s", 3723.5), ("2s500ms", 2.5), ("7", 7),
    ])
    func parsesSimpleAndCompoundForms(text: String, seconds: Double) throws {
        let duration = try #require(DurationParser.parse(text))
        #expect(abs(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 - seconds) < 1e-9)
    }

    @Test(arguments: ["", "1x", "30s1m", "1m1m", "-1s", "1..2s", "s", "1e3s", "9999999999s"])
    func refusesWhatIsNotADuration(text: String) {
        #expect(DurationParser.parse(text) == nil)
    }

    @Test func printsOneWay() {
        #expect(DurationParser.format(.milliseconds(63)) == "63ms")
        #expect(DurationParser.format(.nanoseconds(1_003_070_157)) == "1s")
        #expect(DurationParser.format(.milliseconds(1_230)) == "1.2s")
        #expect(DurationParser.format(.seconds(90)) == "1m30s")
        #expect(DurationParser.format(.seconds(7500)) == "2h5m")
    }
}

/// Request JSON as the mock server matches it: no two different decimals read as one Double, no byte order mark.
@Suite struct RequestJSONTests {
    @Test func decimalsADoubleWouldBlurAreRefused() throws {
        for text in ["1.0000000000000000000001", "[1, 2.0000000000000001]", "0.3000000000000000444", "{\"a\": 1e-400}"] {
            #expect(throws: JSONParser.Error.self, "\(text)") { try JSONParser.parse(request: text) }
        }
        for text in ["1.5", "1.50", "-0.0", "0.1", "0.30000000000000004", "1e2", "1E+22", "10.0e-1", "100000000000000000000", "5e-324"] {
            #expect((try? JSONParser.parse(request: text)) != nil, "\(text)")
        }
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(request: "\u{FEFF}{}") }
        #expect((try? JSONParser.parse("\u{FEFF}{}")) != nil) // files may start with one
        #expect(JSONParser.sameDecimal("-1.50e2", "-150") && !JSONParser.sameDecimal("1", "-1") && JSONParser.sameDecimal("0", "-0.0"))
    }
}
