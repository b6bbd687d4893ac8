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
        let one = CoverageCount(count: 1, covered: 1)
        let summary = CoverageTotals(lines: one, functions: one, regions: one)
        let xml = CoberturaReport.render(
            records, files: [CoverageFile(filename: records.files[0].path, summary: summary)], totals: summary, timestamp: 0)
        #expect(xml.contains("filename=\"src/&lt;b&gt;&amp;&quot;q&quot;]]&gt;\u{FFFD}[2J.swift\""))
        #expect(!xml.contains("\u{1B}") && !xml.contains("\u{0}"))
        #expect(xml.contains("condition-coverage=\"50% (1/2)\""))
        #expect(xml.contains("lines-covered=\"1\" lines-valid=\"1\""))
    }

    /// A TAB, LF or CR in a name was written as U+FFFD: a path with a line break read as one that does not exist.
    /// They are character references, which attribute normalisation keeps.
    @Test func coberturaKeepsTabsAndLineBreaksInNamesAsCharacterReferences() {
        #expect(CoberturaReport.escape("a\nb\tc\rd\u{1}") == "a&#10;b&#9;c&#13;d\u{FFFD}")
        let records = LCOVRecords("SF:/src/b\tc.swift\nDA:1,1\nend_of_record\n")
        let one = CoverageCount(count: 1, covered: 1)
        let summary = CoverageTotals(lines: one, functions: one, regions: one)
        let xml = CoberturaReport.render(
            records, files: [CoverageFile(filename: records.files[0].path, summary: summary)], totals: summary, timestamp: 0)
        #expect(xml.contains("filename=\"src/b&#9;c.swift\""), "\(xml)")
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
    }

    /// Nothing measured is not full coverage (a threshold fails on it).
    @Test func zeroOfZeroIsNothingMeasured() {
        #expect(CoverageCount(count: 0, covered: 0).text == "none measured (0/0)")
        #expect(CoverageCount(count: 0, covered: 0).percent == 0)
    }

    /// Cobertura's rates round down: 60,000 of 60,001 lines is not 1.0 (the console says 99.9%).
    @Test func coberturaRatesNeverRoundUpToOne() {
        #expect(CoberturaReport.rate(60_000, 60_001) == "0.9999")
        #expect(CoberturaReport.rate(6, 7) == "0.8571")
        #expect(CoberturaReport.rate(4, 5) == "0.8")
        #expect(CoberturaReport.rate(1, 1_000_000) == "0")
        #expect(CoberturaReport.rate(Int.max - 1, Int.max) == "0.9999")
    }

    /// Figures in coverage.xml are the summary's (llvm-cov's), not counted again from DA lines; files the summary
    /// left out (a name with a line break) are not in it.
    @Test func coberturaFiguresAreTheSummarys() {
        let records = LCOVRecords("SF:/s/a.swift\nDA:1,1\nDA:2,0\nend_of_record\nSF:/s/b\nend_of_record\n")
        let lines = CoverageCount(count: 7, covered: 6)
        let summary = CoverageTotals(lines: lines, functions: lines, regions: lines)
        let xml = CoberturaReport.render(
            records, files: [CoverageFile(filename: "/s/a.swift", summary: summary)], totals: summary, timestamp: 0)
        #expect(xml.contains("lines-covered=\"6\" lines-valid=\"7\"") && xml.contains("line-rate=\"0.8571\""))
        #expect(!xml.contains("line-rate=\"0.5\"") && !xml.contains("filename=\"s/b\""))
    }

    /// A line break other than LF (CR, VT, U+2028) does not split an lcov record when it is read back.
    @Test func onlyLineFeedsEndLcovLines() {
        let records = LCOVRecords("SF:/a\u{2028}SF:/forged\rx\nDA:1,1\nend_of_record\n")
        #expect(records.files.count == 1 && records.files[0].lines.count == 1)
    }

    /// R9D-5: a source file named with bytes that are not UTF-8 keeps them in lcov.info, but coverage.xml and
    /// summary.txt show U+FFFD: such names are found (to be said in a note), valid ones (U+FFFD itself included) are not.
    @Test func namesThatAreNotUTF8AreFound() {
        let tracefile: [UInt8] =
            Array("SF:/s/ok.c\nDA:1,1\nend_of_record\nSF:/s/ff".utf8) + [0xFF] + Array("x.c\r\nDA:1,0\nend_of_record\n".utf8)
            + Array("SF:/s/real\u{FFFD}.c\nend_of_record\nSF:/s/over".utf8) + [0xC0, 0xAF] + Array(".c\n".utf8)
        #expect(LCOVRecords.namesNotUTF8(tracefile) == ["/s/ff\u{FFFD}x.c", "/s/over\u{FFFD}\u{FFFD}.c"])
        #expect(LCOVRecords.namesNotUTF8(Array("SF:/s/a.c\nend_of_record\n".utf8)).isEmpty)
    }

    @Test func controlCharactersInNamesAreShownEscaped() {
        #expect(Visible.text("a\n::error::x\u{1B}]0;T\u{07}") == "a\\u{A}::error::x\\u{1B}]0;T\\u{7}")
        #expect(Visible.breaksLines("a\u{2028}b") && !Visible.breaksLines("a\tb"))
    }

    @Test func onlyLLVMsRawProfileHeaderIsARawProfile() {
        #expect(CoverageSession.isRawProfile([0x81, 0x72, 0x66, 0x6F, 0x72, 0x70, 0x6C, 0xFF]))
        #expect(CoverageSession.isRawProfile([0x81, 0x52, 0x66, 0x6F, 0x72, 0x70, 0x6C, 0xFF]))
        #expect(!CoverageSession.isRawProfile(Array("junk\n".utf8)))
        #expect(!CoverageSession.isRawProfile([]))
    }
}
