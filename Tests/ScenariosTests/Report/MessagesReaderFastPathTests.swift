import AutomationSupport
import Foundation
import Testing

@testable import Scenarios

/// The reader's fast path (``MessagesLine``: only the members a report uses are built, the rest checked and
/// skipped) reads every file as a whole parse of each line does, and refuses what the whole parse refuses with
/// the same message.
@Suite struct MessagesReaderFastPathTests {
    /// Every line behind a byte order mark: ``MessagesLine`` leaves such a line to ``JSONParser`` (which skips
    /// the mark), so this is the same file read the slow way.
    static func slow(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "\u{FEFF}" + $0 }.joined(separator: "\n")
    }

    static func reports(_ text: String) throws -> [String] {
        let run = try MessagesReader.read([("f.ndjson", Array(text.utf8))])
        return [HTMLReport.render(run), RunReports.junit(run, strict: false), RunReports.json(run), "\(run.exitCode) \(run.error ?? "")"]
    }

    /// A run as `test` writes it (backgrounds, rules, an outline, a failure with its record), with hooks, a base64
    /// attachment, run hooks and escapes everywhere added by hand.
    static func rich() throws -> String {
        let text = try #require(CucumberMessagesTests.texts.first { $0.contains("Rule: a rule") })
        let document = try GherkinParser.parse(text, uri: "rich.feature")
        let pickles = Pickle.compile(document)
        var messages = ScenarioLint.messages([
            ScenarioLint.Source(uri: "rich.feature", text: text, document: .success((document, pickles)))
        ])
        let results = pickles.enumerated().map { index, pickle in
            var result = ScenarioResult(
                pickle: pickle, status: index == 1 ? .failed : .passed, duration: .milliseconds(3 + index),
                trail: pickle.steps.map { "✓ \($0.text)" }, outputTail: index == 1 ? "\u{1B}[31mred\u{1B}[0m \"quoted\"\n" : "",
                unexpectedRequests: index == 1 ? ["GET /x\n  Nearest stub: GET /y"] : [])
            if index == 1 { result.message = "expected \"a\\b\"\n\tgot é \u{2028}" }
            return result
        }
        messages.testRun(
            results, startedAtMs: 1_000, finishedAtMs: 2_000,
            run: ReportRecord.Run(id: "rich:1", commandLine: "sut-launch test", exitCode: 1),
            userSteps: [])
        let pickleIds = messages.lines.compactMap { $0.firstMatch(of: #/^\{"pickle":\{"id":"([^"]+)"/#)?.output.1 }
        let pickleId = try #require(pickleIds.first)
        // A step of that pickle (a dangling pickleStepId is refused by name).
        let pickleLine = try #require(messages.lines.first { $0.hasPrefix(#"{"pickle":{"id":"\#(pickleId)""#) })
        // Every step of it: a pickle step left out of its test case is refused (r15b R15B-5).
        let pickleJSON = try #require(try JSONSerialization.jsonObject(with: Data(pickleLine.utf8)) as? [String: [String: Any]])
        let stepIds = try #require(pickleJSON["pickle"]?["steps"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        let stepId = try #require(stepIds.first)
        let otherSteps = stepIds.dropFirst().enumerated().map { #",{"id":"x\#($0.offset)","pickleStepId":"\#($0.element)"}"# }.joined()
        let extra = [
            #"{"hook":{"id":"h1","name":"Before \"db\"","sourceReference":{"uri":"hooks.sh"}}}"#,
            #"{"testRunHookStarted":{"id":"rh1","testRunStartedId":"rich:1","hookId":"h1","timestamp":{"seconds":1,"nanos":0}}}"#,
            #"{"testRunHookFinished":{"testRunHookStartedId":"rh1","result":{"status":"PASSED","duration":{"seconds":0,"nanos":1}},"timestamp":{"seconds":1,"nanos":2}}}"#,
            #"{"testCase":{"id":"tch","pickleId":"\#(pickleId)","testSteps":[{"id":"hs","hookId":"h1"},{"id":"x","pickleStepId":"\#(stepId)","stepDefinitionIds":[],"stepMatchArgumentsLists":[{"stepMatchArguments":[]}]}\#(otherSteps)]}}"#,
            #"{"testCaseStarted":{"id":"sh","testCaseId":"tch","attempt":2,"timestamp":{"seconds":1,"nanos":5e2}}}"#,
            #"{"testStepFinished":{"testCaseStartedId":"sh","testStepId":"hs","testStepResult":{"status":"FAILED","message":"h\u00e9\ud83d\ude00 \ud800 \/","duration":{"seconds":1.5,"nanos":-1}},"timestamp":{"seconds":1,"nanos":0}}}"#,
            #"{"attachment":{"testCaseStartedId":"sh","body":"aGVsbG8=","contentEncoding":"BASE64","mediaType":"image/png","fileName":"a.png"}}"#,
            #"{"attachment":{"testCaseStartedId":"sh","body":"plain \"text\"","mediaType":"text/x.cucumber.log+plain"}}"#,
            #"{"testCaseFinished":{"testCaseStartedId":"sh","willBeRetried":false,"timestamp":{"seconds":1,"nanos":0}}}"#,
        ]
        var lines = messages.lines
        let finished = try #require(lines.lastIndex { $0.hasPrefix(#"{"testRunFinished""#) })
        lines.insert(contentsOf: extra, at: finished)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func theFastPathReadsAsAWholeParse() throws {
        let texts = [
            try Self.rich(), HTMLReportTests.retried(), HTMLReportTests.retried(hostile: "\\\"\u{0}\u{1F}\u{7F}é😀\u{FFFD}"),
            HTMLReportTests.retried(finished: false), HTMLReportTests.retried().replacingOccurrences(of: "\":", with: "\" \t:\r "),
        ]
        for text in texts {
            let fast = try Self.reports(text)
            #expect(fast == (try Self.reports(Self.slow(text))))
        }
        // The rich run: its hook step, its failure's message decoded, the base64 attachment summarised.
        let run = try MessagesReader.read([("f.ndjson", Array(try Self.rich().utf8))])
        let hooked = try #require(run.scenarios.first { $0.attempts.contains { $0.number == 2 } })
        let attempt = try #require(hooked.attempts.last)
        #expect(attempt.steps.first?.text == "Before \"db\"" && attempt.steps.first?.message == "hé😀 \u{FFFD} /")
        #expect(attempt.attachments.map(\.2) == ["(8 bytes of base64)", "plain \"text\""])
    }

    /// What the whole parse refuses, the fast path refuses with the same message: on an envelope read, one
    /// skipped, and deep inside a member no report reads.
    @Test(arguments: [
        #"{"pickle":{"id":"1","id":"2","uri":"u"}}"#, #"{"testStepStarted":{"a":tru}}"#, #"{"source":{"data":"x\q"}}"#,
        "{\"source\":{\"data\":\"a\u{1}b\"}}", #"{"pickle":{"location":{"line":01}}}"#, #"{"testCase":{"n":1e400}}"#,
        #"{"pickle":{"steps":[1,]}}"#, #"{"meta":{"a":{}},}"#, #"{"meta":{}} x"#, #"{"meta":{"a":"\u12"}}"#, #"{"meta":{"a":-}}"#,
        #"{"meta":{"a":1.}}"#, #"{"meta":{"a":1e}}"#, #"{"meta":{"a":[}}"#, #"{"meta":{"a":{"b"}}}"#, #"{"meta":{"a" 1}}"#,
        #"{"gherkinDocument":{"feature":{"children":[{"scenario":{"steps":[{"id":"1","keyword":"K","location":{"line":1,"line":2}}]}}]}}}"#,
        #"{"meta":{"b":1,"a":2,"b":3}}"#, "{\"meta\":{\"\u{E9}\":1,\"e\u{301}\":2}}", #"{"meta":{"a":1,"\u0061":2}}"#, #"{"meta":'a'}"#,
        #"{"source":{},"meta":{}}"#, #"{"nope":{}}"#, "[1]", #"{"meta":{}"#,
        String(repeating: "[", count: 200), "{\"meta\":" + String(repeating: "[", count: 128) + String(repeating: "]", count: 128) + "}",
        "{\"meta\":" + String(repeating: "{\"a\":", count: 128) + "1" + String(repeating: "}", count: 128) + "}",
    ])
    func whatAWholeParseRefusesIsRefusedAlike(_ line: String) throws {
        let file = HTMLReportTests.retried().replacingOccurrences(of: "{\"testRunStarted\"", with: line + "\n{\"testRunStarted\"")
        let whole: String
        do {
            let node = try JSONParser.parse(line)
            whole = node.members?.count == 1 ? ": unknown envelope" : ": not a Cucumber Messages envelope"
        } catch { whole = ":\(error.position.column): not JSON: \(error.message)" }
        do {
            _ = try HTMLReportTests.read(file)
            Issue.record("accepted \(line.prefix(80))")
        } catch { #expect(error.description.hasPrefix("f0.ndjson:4" + whole), "\(error) for \(line.prefix(80))") }
    }

    /// HOSTILE 6: ten megabytes of `[`, of `\`, of `"\\`, or one string, are refused or read in one pass (a
    /// rescan per byte would take minutes here).
    @Test func aHugeHostileLineIsReadInOnePass() throws {
        let size = 10 << 20
        for (line, expected) in [
            (String(repeating: "[", count: size), "not JSON"), (String(repeating: "\\", count: size), "not JSON"),
            ("{\"meta\":{\"x\":\"" + String(repeating: "\\\\", count: size / 2) + "\"}}", nil),
            ("{\"source\":{\"data\":\"" + String(repeating: "\\\"{[", count: size / 4) + "\"}}", nil),
            ("{\"pickle\":{\"name\":\"" + String(repeating: "\\u00e9", count: size / 6), "not JSON"),
        ] as [(String, String?)] {
            let file = HTMLReportTests.retried().replacingOccurrences(of: "{\"testRunStarted\"", with: line + "\n{\"testRunStarted\"")
            do {
                _ = try HTMLReportTests.read(file)
                #expect(expected == nil, "accepted \(line.prefix(20))")
            } catch {
                #expect(
                    expected.map { error.description.hasPrefix("f0.ndjson:4:") && error.description.contains(": " + $0) } == true,
                    "\(error)")
            }
        }
    }

    /// HOSTILE 7: invalid UTF-8 in a string reads as U+FFFD, in a name, a step's text and a message.
    @Test func invalidUTF8ReadsAsReplacementCharacters() throws {
        // The hostile text is "<": each one becomes 0xFF 0xC3 (a byte that never starts a character, then a lead byte
        // cut short by the closing quote).
        let bytes = Array(HTMLReportTests.retried(hostile: "<").utf8).flatMap { $0 == UInt8(ascii: "<") ? [0xFF, 0xC3] : [$0] }
        let run = try MessagesReader.read([("f.ndjson", bytes)])
        #expect(run.scenarios[0].name == "flaky \u{FFFD}\u{FFFD}")
        #expect(run.scenarios[0].feature == "F \u{FFFD}\u{FFFD}")
        #expect(run.scenarios[0].attempts[0].steps[0].text == "When I do \u{FFFD}\u{FFFD}")
        #expect(run.scenarios[0].attempts[0].steps[0].message == "boom \u{FFFD}\u{FFFD}")
        #expect(HTMLReport.render(run).contains("flaky \u{FFFD}\u{FFFD}"))
    }

    /// A result record (an attachment's body) is read by ``MessagesLine`` as a line is, with a whole parse when it
    /// leaves the fast path: either way the record read is the same, for `test`'s records and for hostile ones.
    @Test func aResultRecordReadsAsAWholeParse() throws {
        let written = try Self.rich().split(separator: "\n").compactMap { line -> String? in
            let attachment = try? JSONParser.parse(String(line))["attachment"]
            return attachment?["fileName"]?.string == ReportRecord.resultFile ? attachment?["body"]?.string : nil
        }
        #expect(written.count >= 2)
        let record = #"{"index":1,"uri":"a.feature","line":2,"status":"failed","duration":[1,2]"#
        let hostile = [
            record + #","message":"\u00e9\ud800 \/ \"x\"\n","trail":["a\tb",7,null],"tags":[1,"@t"]}"#,
            record + #","feature":"F","earlierAttempts":[{"index":0,"uri":"a","line":2.0,"status":"passed","duration":[0,1.5e3]},3]}"#,
            #"{"index":1e2,"uri":"u","line":-5,"status":"passed","duration":[99999999999999999,-1],"timedOut":true,"quarantined":1}"#,
            record + #","coverage":{"files":["x.c",{}],"functions":"f"},"outputTail":"\u001b[31m"}"#,
            record + "}", " \t" + record + "} ", "\u{FEFF}" + record + "}", record + #","uri":"b"}"#, record + "", "[" + record + "}]",
            #"{"index":1,"uri":"a","line":2,"status":"nope","duration":[1,2]}"#,
            #"{"index":1,"uri":"a","line":2,"status":"failed","duration":[1]}"#,
            record + ",\"é\":1}", record + #","name":"\ud83d\ude00 é"}"#,
            record + #","name":"\ud800\u0041 \udc00 \uDBFF\uDFFF \ud83d\ude00\ud83d x\uD83D"}"#,
        ]
        var fastReads = 0
        for body in written + hostile {
            let bytes = Array(body.utf8)
            let whole = (try? JSONParser.parse(bytes, repairingUTF8: true)).flatMap { ReportRecord.result($0) }
            let fast = bytes.withUnsafeBufferPointer { buffer in
                var scanner = MessagesLine(buffer)
                return scanner.value(0..<buffer.count).map { ReportRecord.result($0) }
            }
            guard let fast else { continue } // left to the whole parse, as the reader does
            fastReads += 1
            #expect(
                fast.map { ReportRecord.json($0.result, index: $0.index) } == whole.map { ReportRecord.json($0.result, index: $0.index) },
                "\(body)")
        }
        #expect(fastReads >= written.count + 8)
    }

    /// The word scan (``MessagesString``) on every path of the reader: each of ``MessagesStringTests/pieces`` after 0
    /// to 8 bytes (every offset in a word) in the values read (names, a step's text, a message, an attachment's body),
    /// in a step start (skipped), in a member name, in the file's last line with no line feed after it (its string in
    /// the buffer's last word), and that file cut in its last 12 bytes: the fast path reads what a whole parse reads,
    /// or refuses it with the same message.
    @Test func aHostileStringAtEveryOffsetReadsAsAWholeParse() throws {
        let file = Array(HTMLReportTests.retried(hostile: "HOSTILE").utf8)
        let marker = Array("HOSTILE".utf8)
        let finished = Array(#"{"testRunFinished":{"success":true,"timestamp":{"seconds":12,"nanos":0}}}"#.utf8)
        var compared = 0
        for piece in MessagesStringTests.pieces {
            for before in 0...8 {
                let content = Array(repeating: UInt8(ascii: "a"), count: before) + piece
                let values = Self.replacing(marker, with: content, in: file)
                let started = Array(#"{"testStepStarted":{"testCaseStartedId":"a0","x":""#.utf8) + content + Array(#""}}"#.utf8)
                let named = Array(#"{"testStepStarted":{"testCaseStartedId":"a0",""#.utf8) + content + Array(#"":[]}}"#.utf8)
                let skipped = Self.replacing(finished, with: started + [0x0A] + named + [0x0A] + finished, in: file)
                let ending: [UInt8] = Array(finished.dropLast(2)) + Array(#","x":""#.utf8) + content + Array(#""}}"#.utf8)
                let last: [UInt8] = Array(Self.replacing(finished, with: ending, in: file).dropLast())
                for bytes in [values, skipped, last] + (1...12).map({ Array(last.dropLast($0)) }) {
                    try Self.compareWithWholeParse(bytes)
                    compared += 1
                }
            }
        }
        #expect(compared == MessagesStringTests.pieces.count * 9 * 15)
    }

    static func replacing(_ marker: [UInt8], with content: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var at = 0
        while at < bytes.count {
            if bytes[at...].starts(with: marker) {
                result += content
                at += marker.count
            } else {
                result.append(bytes[at])
                at += 1
            }
        }
        return result
    }

    /// Reads `bytes` as they are and with every line behind a byte order mark (read by the whole parse only): the
    /// same reports, or the same refusal (for a line that is not JSON, the whole parse's message for that line).
    static func compareWithWholeParse(_ bytes: [UInt8]) throws {
        let shown = String(decoding: bytes.suffix(60), as: UTF8.self).debugDescription
        var slow: [UInt8] = []
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if !line.isEmpty { slow += [0xEF, 0xBB, 0xBF] }
            slow += line + [0x0A]
        }
        if bytes.last != 0x0A { slow.removeLast() }
        let fast: ReportRun
        do { fast = try MessagesReader.read([("f.ndjson", bytes)]) } catch {
            let lineNumber = try #require(Int(error.description.split(separator: ":")[1]))
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            let place = MessagesReader.Place(file: "f.ndjson", line: lineNumber)
            do {
                _ = try MessagesReader.parse(lines[lineNumber - 1], at: place, last: lineNumber == lines.count)
                #expect(throws: (any Error).self, "the whole parse read \(shown)") { try MessagesReader.read([("f.ndjson", slow)]) }
            } catch let whole { #expect(error.description == whole.description, "\(shown)") }
            return
        }
        let whole = try MessagesReader.read([("f.ndjson", slow)])
        #expect(
            [HTMLReport.render(fast), RunReports.junit(fast, strict: false), RunReports.json(fast)]
                == [HTMLReport.render(whole), RunReports.junit(whole, strict: false), RunReports.json(whole)], "\(shown)")
    }
}
