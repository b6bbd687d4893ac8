import Testing

@testable import AutomationSupport

@Suite struct TextLinesTests {
    @Test func everyLineBreakPeopleWriteEndsALineInFiles() {
        #expect("a\nb\r\nc\rd".splitLines() == ["a", "b", "c", "d"])
        #expect("a\r\n".splitLines() == ["a", ""])
        #expect("\r\n\r\n".splitLines() == ["", "", ""])
        #expect("".splitLines() == [""])
        #expect("caf\u{E9}\r\n\u{1F600}\r".splitLines() == ["caf\u{E9}", "\u{1F600}", ""])
    }

    @Test func outputLinesEndAtLFAndDropTheCRBeforeIt() {
        #expect("alpha\r\nbeta\r\n".outputLines() == ["alpha", "beta"])
        #expect("progress 10%\rprogress 20%\ndone".outputLines() == ["progress 10%\rprogress 20%", "done"])
        #expect("\n".outputLines() == [""])
        #expect("".outputLines() == [])
        #expect("x\n\n".outputLines() == ["x", ""])
    }

    @Test func aByteOrderMarkIsDropped() {
        #expect("\u{FEFF}A=1".droppingByteOrderMark() == "A=1")
        #expect("A=\u{FEFF}".droppingByteOrderMark() == "A=\u{FEFF}")
    }
}
