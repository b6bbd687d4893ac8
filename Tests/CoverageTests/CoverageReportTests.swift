import Testing

@testable import Coverage

/// lcov read into records, Cobertura written from them, scenario directory names: hostile text included.
@Suite struct CoverageReportTests {
    @Test func lcovRecordsReadLinesFunctionsAndBranches() {
        let records = LCOVRecords(
            "SF:/src/a.swift\r\nFN:3,a.swift:$s1a5loginyyF\r\nFNDA:2,a.swift:$s1a5loginyyF\nFN:9,main\nFNDA:0,main\n"
                + "DA:3,2\nDA:4,0\nBRDA:3,0,0,1\nBRDA:3,0,1,-\nend_of_record\n")
        #expect(records.files.count == 1)
        let file = records.files[0]
        #expect(file.path == "/src/a.swift")
        #expect(file.lines.map(\.hits) == [2, 0])
        #expect(file.functions.map(\.name) == ["a.swift:$s1a5loginyyF", "main"])
        #expect(file.functionsHit == 1)
        #expect(file.branches.map(\.taken) == [1, nil])
    }

    @Test(arguments: ["99999999999999999999999", "-1", "1e300", "0x10", " 5", ""])
    func countsAtTheEdgesNeverTrap(_ count: String) {
        let records = LCOVRecords("SF:x\nDA:\(count),\(count)\nFNDA:\(count),f\nBRDA:\(count),0,0,\(count)\nend_of_record\n")
        #expect(records.files.count == 1)
        let expected = count == "99999999999999999999999" ? Int.max : 0
        #expect(records.files[0].lines.first?.hits == expected)
    }

    @Test func aRecordWithoutItsEndIsNotCounted() {
        #expect(LCOVRecords("SF:x\nDA:1,1\n").files.isEmpty)
    }

    @Test func coberturaEscapesMarkupAndControlCharactersInNames() {
        let records = LCOVRecords(
            "SF:/src/<b>&\"q\"]]>\u{1B}[2J.swift\nFN:1,f<x>\u{0}\nFNDA:1,f<x>\u{0}\nDA:1,1\nBRDA:1,0,0,1\nBRDA:1,0,1,0\nend_of_record\n")
        let xml = CoberturaReport.render(records, timestamp: 0)
        #expect(xml.contains("filename=\"src/&lt;b&gt;&amp;&quot;q&quot;]]&gt;\u{FFFD}[2J.swift\""))
        #expect(!xml.contains("\u{1B}") && !xml.contains("\u{0}"))
        #expect(xml.contains("condition-coverage=\"50% (1/2)\""))
        #expect(xml.contains("lines-covered=\"1\" lines-valid=\"1\""))
    }

    @Test func ratesAreOneWhenThereIsNothingToCover() {
        #expect(CoberturaReport.rate(0, 0) == "1")
        #expect(CoberturaReport.rate(1, 3) == "0.3333")
    }

    @Test(arguments: ["../../etc/passwd.feature", "a/b\nc.feature", "/x/.feature", "日本.feature", String(repeating: "x", count: 300)])
    func scenarioDirectoriesAreOneSafeComponent(_ uri: String) {
        let id = CoverageSession.scenarioID(uri: uri, line: 7)
        #expect(!id.contains("/") && !id.contains("..") && !id.hasPrefix(".") && id.utf8.count < 100)
        #expect(
            id.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_".unicodeScalars.contains($0))
            })
        #expect(id != CoverageSession.scenarioID(uri: uri + "x", line: 7))
    }

    @Test func percentagesNeverRoundUpToAHundred() {
        #expect(CoverageCount(count: 1000, covered: 999).text == "99.9% (999/1000)")
        #expect(CoverageCount(count: 3, covered: 2).text == "66.6% (2/3)")
        #expect(CoverageCount(count: 0, covered: 0).text == "100.0% (0/0)")
    }
}
