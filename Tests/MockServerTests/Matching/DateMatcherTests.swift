import AutomationSupport
import Testing

@testable import MockServer

/// WireMock's `before`, `after` and `equalToDateTime` (Mappings/WireMock's documentation's examples), compared as
/// WireMock 2.35.1 compares them: every `#expect` on matching here was first observed on WireMock itself.
@Suite struct DateMatcherTests {
    /// 2021-01-31T10:20:30Z: a month's last day, to tell month arithmetic and truncations apart.
    static let now = DateTimeValue.zoned("2021-01-31T10:20:30Z")!

    private func date(_ json: String) throws -> DateMatcher {
        guard case .date(let matcher) = try Mappings.matcher(json) else { throw MatcherError.notADateMatcher }
        return matcher
    }

    private enum MatcherError: Error { case notADateMatcher }

    private func matched(_ request: String, _ value: String?) throws -> Bool {
        let server = try Mappings.server(#"{"urlPath": "/d", "headers": {"X-D": "# + request + "}}")
        return Mappings.ask(server, "/d", headers: value.map { [("X-D", $0)] } ?? []).matched
    }

    @Test func fixedDatesCompareInstantsFieldsOrUTCAsWireMockDoes() throws {
        let zoned = #"{"before": "2021-06-14T12:13:14Z"}"#
        #expect(try matched(zoned, "2021-06-14T12:13:13Z"))
        #expect(try matched(zoned, "2021-06-14T14:13:13+02:00"))
        #expect(try matched(zoned, "2021-06-14")) // a local date, read at UTC: 00:00
        #expect(try matched(zoned, "Mon, 14 Jun 2021 12:13:13 GMT"))
        #expect(try !matched(zoned, "2021-06-14T12:13:14Z"))
        #expect(try !matched(zoned, "2021-06-14T12:13:14")) // equal, so not before
        #expect(try !matched(zoned, "garbage"))
        #expect(try !matched(zoned, nil))
        let equal = #"{"equalToDateTime": "2021-06-14T12:13:14Z"}"#
        for text in ["2021-06-14T12:13:14.000Z", "2021-06-14T14:13:14+02:00", "2021-06-14T12:13:14", "Mon Jun 14 12:13:14 2021"] {
            #expect(try matched(equal, text), "\(text)")
        }
        // A local expectation reads a zoned value's own fields, whatever its offset.
        let local = #"{"equalToDateTime": "2021-06-14T12:13:14"}"#
        #expect(try matched(local, "2021-06-14T12:13:14+02:00"))
        #expect(try !matched(local, "2021-06-14T14:13:14+02:00"))
        #expect(try matched(#"{"after": "2021-06-14T12:13:14Z"}"#, "2100-01-01T00:00:00Z"))
        #expect(try matched(#"{"equalToDateTime": "2021-06-14"}"#, "2021-06-14"))
    }

    @Test func nowIsTruncatedThenMovedAndApplyTruncationLastMovesFirst() throws {
        let plain = try date(#"{"equalToDateTime": "now"}"#)
        #expect(plain.matches("2021-01-31T10:20:30Z", now: Self.now))
        #expect(plain.matches("2021-01-31T11:20:30+01:00", now: Self.now))
        #expect(try date(#"{"after": "now +3 days"}"#).expectedValue(now: Self.now)?.description == "2021-02-03T10:20:30Z")
        #expect(try date(#"{"after": "NOW -1 months"}"#).expectedValue(now: Self.now)?.description == "2020-12-31T10:20:30Z")
        #expect(try date(#"{"after": "-3 days"}"#).expectedValue(now: Self.now)?.description == "2021-01-28T10:20:30Z")
        // The explicit offset wins over the one in the text, as in WireMock.
        let explicit = try date(#"{"before": "now +100 years", "expectedOffset": -5, "expectedOffsetUnit": "years"}"#)
        #expect(explicit.expectedValue(now: Self.now)?.description == "2016-01-31T10:20:30Z")
        let truncatedFirst = try date(
            #"{"equalToDateTime": "now", "truncateExpected": "first day of next month", "expectedOffset": -1, "expectedOffsetUnit": "days"}"#
        )
        #expect(truncatedFirst.expectedValue(now: Self.now)?.description == "2021-01-31T00:00:00Z")
        let movedFirst = try date(
            #"{"equalToDateTime": "now", "truncateExpected": "first day of next month", "expectedOffset": -1, "expectedOffsetUnit": "days", "applyTruncationLast": true}"#
        )
        #expect(movedFirst.expectedValue(now: Self.now)?.description == "2021-02-01T00:00:00Z")
        #expect(movedFirst.matches("2021-02-01T00:00:00Z", now: Self.now))
        let months = try date(#"{"before": "now", "expectedOffset": 1, "expectedOffsetUnit": "months"}"#)
        #expect(months.expectedValue(now: Self.now)?.description == "2021-02-28T10:20:30Z")
        // The documentation's example, on the real clock: a date three days ahead is after now, one behind is not.
        #expect(try matched(#"{"after": "now +3 days"}"#, "2999-01-01T00:00:00Z"))
        #expect(try !matched(#"{"after": "now +3 days"}"#, "2000-01-01T00:00:00Z"))
        #expect(try matched(#"{"before": "now", "expectedOffset": 3, "expectedOffsetUnit": "days"}"#, "2000-01-01T00:00:00Z"))
    }

    @Test func actualFormatsAndTruncateActualReadTheRequestsValue() throws {
        let format = #"{"equalToDateTime": "2021-06-24T00:00:00", "actualFormat": "dd/MM/yyyy"}"#
        #expect(try matched(format, "24/06/2021"))
        #expect(try !matched(format, "2021-06-24T00:00:00"))
        #expect(try matched(#"{"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "unix"}"#, "1623672794"))
        #expect(try matched(#"{"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "EPOCH"}"#, "1623672794000"))
        #expect(try !matched(#"{"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "unix"}"#, "2021-06-14T12:13:14Z"))
        let truncated = #"{"equalToDateTime": "2021-06-01T00:00:00Z", "truncateActual": "first day of month"}"#
        #expect(try matched(truncated, "2021-06-30T23:59:59Z"))
        #expect(try matched(truncated, "Mon, 14 Jun 2021 12:13:14 GMT"))
        #expect(try !matched(truncated, "2021-06-14T14:13:14+02:00")) // June 1st at +02:00 is May 31st in UTC
        #expect(try !matched(truncated, "2021-06-14T12:13:14")) // no zoned reading to truncate (WireMock: 500)
        #expect(try !matched(truncated, nil))
        // truncateExpected does nothing to a fixed date in WireMock: refused, not ignored (below).
    }

    @Test func dateMatchersStandWhereverAStringMatcherDoes() throws {
        let server = try Mappings.server(
            #"""
            {"urlPath": "/d", "queryParameters": {"since": {"after": "2020-01-01T00:00:00Z"}},
             "cookies": {"seen": {"and": [{"after": "2020-01-01"}, {"before": "2022-01-01"}]}},
             "bodyPatterns": [{"matchesJsonPath": {"expression": "$.at", "before": "2022-01-01T00:00:00Z"}}]}
            """#)
        let body = Array(#"{"at": "2021-06-14T12:13:14Z"}"#.utf8)
        #expect(Mappings.ask(server, "/d?since=2021-01-01T00:00:00Z", headers: [("Cookie", "seen=2021-03-03")], body: body).matched)
        #expect(!Mappings.ask(server, "/d?since=2019-01-01T00:00:00Z", headers: [("Cookie", "seen=2021-03-03")], body: body).matched)
        #expect(!Mappings.ask(server, "/d?since=2021-01-01T00:00:00Z", headers: [("Cookie", "seen=2023-03-03")], body: body).matched)
        let late = Array(#"{"at": "2023-01-01T00:00:00Z"}"#.utf8)
        #expect(!Mappings.ask(server, "/d?since=2021-01-01T00:00:00Z", headers: [("Cookie", "seen=2021-03-03")], body: late).matched)
    }

    /// WireMock keeps, of several values, the one nearest in years (its date distance, matching or not), then asks
    /// whether that one matches; a local value against a zoned date is always "far" (distance 1).
    @Test func ofSeveralValuesTheNearestInYearsDecidesAsInWireMock() throws {
        let query = try Mappings.server(#"{"urlPath": "/d", "queryParameters": {"since": {"after": "2020-01-01T00:00:00Z"}}}"#)
        #expect(!Mappings.ask(query, "/d?since=2019-01-01T00:00:00Z&since=2021-01-01T00:00:00Z").matched)
        #expect(Mappings.ask(query, "/d?since=2021-01-01T00:00:00Z&since=2019-01-01T00:00:00Z").matched)
        #expect(!Mappings.ask(query, "/d?since=2021-01-01T00:00:00&since=2019-01-01T00:00:00Z").matched)
        let header = try Mappings.server(#"{"urlPath": "/d", "headers": {"X-D": {"before": "2020-01-01T00:00:00Z"}}}"#)
        #expect(Mappings.ask(header, "/d", headers: [("X-D", "2030-01-01T00:00:00Z"), ("X-D", "2019-06-01T00:00:00Z")]).matched)
        #expect(!Mappings.ask(header, "/d", headers: [("X-D", "2020-06-01T00:00:00Z"), ("X-D", "2000-01-01T00:00:00Z")]).matched)
        // Other matchers are at distance 0 when they match: any matching value will do, as always.
        let plain = try Mappings.server(#"{"urlPath": "/d", "headers": {"X-D": {"equalTo": "b"}}}"#)
        #expect(Mappings.ask(plain, "/d", headers: [("X-D", "a"), ("X-D", "b")]).matched)
    }

    @Test func nearMissesSayWhatWasExpectedAndWhenNowWas() throws {
        let server = try Mappings.server(
            #"{"urlPath": "/d", "headers": {"X-D": {"before": "now +3 days", "truncateExpected": "first hour of day", "actualFormat": "dd/MM/yyyy"}}}"#
        )
        let answer = Mappings.ask(server, "/d", headers: [("X-D", "01/01/2999")])
        #expect(!answer.matched)
        #expect(answer.text.contains("header X-D: expected a date-time before now truncated to the first hour of day +3 days ("))
        #expect(answer.text.contains("T00:00:00Z), read as dd/MM/yyyy, got \"01/01/2999\""))
        let fixed = try Mappings.server(#"{"urlPath": "/d", "headers": {"X-D": {"equalToDateTime": "2021-06-14T12:13:14Z"}}}"#)
        #expect(
            Mappings.ask(fixed, "/d", headers: [("X-D", "garbage")]).text.contains(
                "header X-D: expected a date-time equal to 2021-06-14T12:13:14Z, got \"garbage\""))
    }

    @Test(arguments: [
        (#"{"before": "not a date"}"#, #"mapping.json:1:42: headers "X": "not a date" is not a date-time like"#),
        (#"{"before": 5}"#, #"mapping.json:1:42: "before" must be a date-time like"#),
        (#"{"before": "2021-02-30T00:00:00Z"}"#, #"is not a date-time like"#),
        (#"{"before": "2021-06-14T24:00:00Z"}"#, #"is not a date-time like"#),
        (#"{"before": "now+3 days"}"#, #"is not a date-time like"#),
        (#"{"before": "now +3 day"}"#, #""day" is not a unit; did you mean "days"?; units: seconds, minutes, hours, days, months, years"#),
        (
            #"{"before": "now +99999999999 days"}"#,
            #"the offset amount "+99999999999" is not a whole number from -2147483648 to 2147483647"#
        ),
        (#"{"before": "now now 3 days"}"#, #"is not an offset: write an amount and a unit"#),
        (#"{"before": "now +2147483647 years"}"#, #"now +2147483647 years is outside the years -999999999 to 999999999"#),
        (#"{"before": "now", "expectedOffset": 2147483648, "expectedOffsetUnit": "days"}"#, #""expectedOffset": '2147483648' is not"#),
        (#"{"before": "now", "expectedOffset": 1e300, "expectedOffsetUnit": "days"}"#, #""expectedOffset":"#),
        (#"{"before": "now", "expectedOffset": "3", "expectedOffsetUnit": "days"}"#, #""expectedOffset" must be an integer"#),
        (
            #"{"before": "now", "expectedOffset": 3}"#,
            #""expectedOffset" needs "expectedOffsetUnit" beside it (WireMock ignores one alone)"#
        ),
        (#"{"before": "now", "expectedOffsetUnit": "weeks"}"#, #""weeks" is not a unit"#),
        (#"{"before": "now", "truncateExpected": "first day of week"}"#, #""first day of week" is not a truncation"#),
        (#"{"before": "2021-06-14T00:00:00Z", "truncateExpected": "first day of month"}"#, #""truncateExpected" applies to "now""#),
        (
            #"{"before": "2021-06-14", "expectedOffset": 1, "expectedOffsetUnit": "days"}"#,
            #"beside the fixed date-time "2021-06-14" WireMock ignores it"#
        ),
        (#"{"before": "now", "actualFormat": "qqqq"}"#, #"actualFormat "qqqq": the pattern letter q (quarter) is not supported"#),
        (
            #"{"equalTo": "x", "actualFormat": "dd/MM/yyyy"}"#,
            #""actualFormat" belongs beside before, after or equalToDateTime, not equalTo"#
        ),
        (#"{"before": "now", "after": "now"}"#, #"has 2 matchers (before, after); use one, or "and""#),
    ])
    func whatWireMockRefusesOrWouldNeverUseIsRefusedByName(matcher: String, message: String) {
        let problem = Mappings.problem(#"{"headers": {"X": "# + matcher + "}}")
        #expect(problem?.contains(message) == true, "\(problem ?? "loaded")")
        #expect(problem?.hasPrefix("mapping.json:1:") == true)
    }

    /// HOSTILE.md's values that kill, sent as the request's date: none traps, none matches by accident.
    @Test func hostileValuesNeitherTrapNorMatch() throws {
        let after = try date(#"{"after": "now"}"#)
        let unix = try date(#"{"before": "now", "actualFormat": "unix"}"#)
        let pattern = try date(#"{"before": "now", "actualFormat": "d/M/yyyy HH:mm"}"#)
        let values =
            [
                "0", "-1", "-0", "NaN", "inf", "1e300", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "0x10",
                "1_000", " 5",
            ]
            + [String(repeating: "9", count: 10_000), "+999999999-12-31T23:59:59.999999999Z", "-999999999-01-01T00:00:00Z"]
            + ["9999999999-01-01T00:00:00Z", "2021-06-14T23:59:60Z", "2021-06-14T24:00:00Z", "\u{0}", "٣/٣/٢٠٢١ 10:00"]
        for value in values {
            _ = after.matches(value, now: Self.now)
            _ = unix.matches(value, now: Self.now)
            _ = pattern.matches(value, now: Self.now)
        }
        #expect(after.matches("+999999999-12-31T23:59:59.999999999Z", now: Self.now))
        #expect(!after.matches("-999999999-01-01T00:00:00Z", now: Self.now))
        #expect(unix.matches("-9223372036854775", now: Self.now)) // seconds × 1000 still fits
        #expect(!unix.matches("9223372036854775807", now: Self.now)) // × 1000 overflows: not read (Java wraps it)
        #expect(try date(#"{"after": "now", "actualFormat": "epoch"}"#).matches("9223372036854775807", now: Self.now))
        #expect(!pattern.matches("٣/٣/٢٠٢١ 10:00", now: Self.now)) // ASCII digits only
    }
}
