import Testing

@testable import AutomationSupport

/// `actualFormat` patterns read as Java's `DateTimeFormatter.ofPattern` reads them (checked against WireMock 2.35.1
/// on Java 17: which texts each pattern reads, and how).
@Suite struct JavaDateFormatTests {
    private func local(_ pattern: String, _ text: String) throws -> String? {
        try JavaDateFormat(pattern).parse(text).local?.description
    }

    private func zoned(_ pattern: String, _ text: String) throws -> String? {
        try JavaDateFormat(pattern).parse(text).zoned?.description
    }

    @Test func patternsReadWhatJavaReads() throws {
        #expect(try local("dd/MM/yyyy", "14/06/2021") == "2021-06-14T00:00:00")
        #expect(try local("dd/MM/yyyy", "31/02/2021") == "2021-02-28T00:00:00") // SMART: the month's last day
        #expect(try local("dd/MM/yyyy", "32/01/2021") == nil)
        #expect(try local("dd/MM/yyyy", "1/06/2021") == nil)
        #expect(try local("d/M/yyyy", "001/6/2021") == "2021-06-01T00:00:00")
        #expect(try local("yyyyMMdd", "20210614") == "2021-06-14T00:00:00")
        #expect(try local("dd.MM.yy", "14.06.21") == "2021-06-14T00:00:00")
        #expect(try local("dd.MM.yy", "14.06.2021") == nil)
        #expect(try local("yyyy-MM-dd HH", "2021-06-14 12") == "2021-06-14T12:00:00")
        #expect(try local("yyyy-MM-dd['T'HH[:mm]]", "2021-06-14T12:30") == "2021-06-14T12:30:00")
        #expect(try local("yyyy-MM-dd['T'HH[:mm]]", "2021-06-14") == "2021-06-14T00:00:00")
        #expect(try local("EEE, dd MMM yyyy", "Mon, 14 Jun 2021") == "2021-06-14T00:00:00")
        #expect(try local("EEE, dd MMM yyyy", "Tue, 14 Jun 2021") == nil) // not that day
        #expect(try local("EEE, dd MMM yyyy", "mon, 14 jun 2021") == nil) // case as written
        #expect(try local("dd MMMM yyyy", "14 June 2021") == "2021-06-14T00:00:00")
        #expect(try local("yyyy-MM-dd hh:mm a", "2021-06-14 03:30 PM") == "2021-06-14T15:30:00")
        #expect(try local("yyyy-MM-dd hh:mm a", "2021-06-14 12:30 AM") == "2021-06-14T00:30:00")
        #expect(try local("yyyy-MM-dd hh:mm a", "2021-06-14 15:30 PM") == nil)
        #expect(try local("yyyy-MM-dd hh:mm a", "2021-06-14 03:30 pm") == nil)
        #expect(try local("''yyyy'-'MM'-'dd 'o''clock'", "'2021-06-14 o'clock") == "2021-06-14T00:00:00")
        #expect(try local("uuuu-MM-dd", "-0001-01-01") == "-0001-01-01T00:00:00")
        #expect(try local("uuuu-MM-dd", "10000-01-01") == nil) // more digits than letters need a sign
        #expect(try local("uuuu-MM-dd", "+10000-01-01") == "+10000-01-01T00:00:00")
        #expect(try local("uuuuu-MM-dd", "+10000-01-01") == nil) // five letters: a sign only beyond five digits
        #expect(try local("yyyy-MM-dd", "0000-01-01") == nil) // year of era 0
        #expect(try local("uuuu-MM-dd", "0000-01-01") == "0000-01-01T00:00:00")
    }

    @Test func offsetsReadAsEachLetterCountSays() throws {
        #expect(try zoned("yyyy-MM-dd'T'HH:mm:ssXXX", "2021-06-14T14:13:14+02:00") == "2021-06-14T14:13:14+02:00")
        #expect(try zoned("yyyy-MM-dd'T'HH:mm:ssXXX", "2021-06-14T12:13:14Z") == "2021-06-14T12:13:14Z")
        #expect(try zoned("yyyy-MM-dd'T'HH:mm:ssXXX", "2021-06-14T12:13:14+0200") == nil)
        #expect(try zoned("yyyy-MM-dd'T'HH:mm:ss.SSSX", "2021-06-14T12:13:14.123+00") == "2021-06-14T12:13:14.123Z")
        #expect(try zoned("yyyy-MM-dd'T'HH:mm:ss.SSSX", "2021-06-14T12:13:14.123+0130") == "2021-06-14T12:13:14.123+01:30")
        #expect(try zoned("yyyy-MM-dd'T'HH:mm:ssZ", "2021-06-14T12:13:14+0000") == "2021-06-14T12:13:14Z")
        #expect(try zoned("yyyy-MM-dd'T'HH:mm:ssZ", "2021-06-14T12:13:14Z") == nil)
        #expect(try zoned("uuuu-MM-dd'T'HH:mm:ssxxx", "2021-06-14T12:13:14+00:00") == "2021-06-14T12:13:14Z")
        #expect(try zoned("uuuu-MM-dd'T'HH:mm:ssxxx", "2021-06-14T12:13:14Z") == nil)
        #expect(try zoned("uuuu-MM-dd'T'HH:mm:ssxxx", "2021-06-14T12:13:14+18:30") == nil)
        // A date and an offset without a time is a local date only (Java's LocalDate), not zoned.
        let dateOnly = try JavaDateFormat("yyyy-MM-ddXXX").parse("2021-06-14Z")
        #expect(dateOnly.zoned == nil && dateOnly.local?.description == "2021-06-14T00:00:00")
    }

    @Test(arguments: [
        ("qqqq", "the pattern letter q (quarter) is not supported"), ("yyyy-MM-dd z", "the pattern letter z (zone name)"),
        ("ddd", "too many pattern letters: ddd"), ("MMMMM", "MMMMM (narrow month names) is not supported"),
        ("hh:mm", "h (hour 1-12) needs a (AM/PM)"), ("'open", "a quoted text is not closed"),
        ("yyyy]", "\"]\" without a \"[\" before it"), ("yyyy{", "\"{\" is reserved"), ("ZZZZ", "ZZZZ (a localized offset"),
        ("XXXXXX", "too many pattern letters"), (String(repeating: "[", count: 17), "optional sections nest deeper than 16"),
        ("SSSSSSSSSS", "too many pattern letters"), ("aa", "too many pattern letters: aa"),
    ])
    func patternsJavaOrSutLaunchRefuseAreNamed(pattern: String, message: String) {
        #expect(throws: JavaDateFormat.Error.self) { try JavaDateFormat(pattern) }
        do {
            _ = try JavaDateFormat(pattern)
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    /// Hostile values: long runs of digits, texts far longer than the pattern, every digit count at the edges.
    @Test func hostileTextsAreReadOrRefusedQuickly() throws {
        let format = try JavaDateFormat("d/M/yyyy")
        #expect(format.parse(String(repeating: "9", count: 100_000)) == (nil, nil))
        #expect(format.parse("9999999999999999999/1/2021") == (nil, nil))
        #expect(format.parse("1/1/" + String(repeating: "1", count: 30)) == (nil, nil))
        #expect(try JavaDateFormat("yyyy").parse("2021") == (nil, nil)) // no month: no date
        #expect(try local("yyyyyyyyy-MM-dd", "999999999-12-31") == "+999999999-12-31T00:00:00")
    }
}
