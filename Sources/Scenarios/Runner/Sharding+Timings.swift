import AutomationSupport
import MockServer
package import ProcessEngine

/// `--shard-timings FILE`: the times of an earlier run, read from its JUnit, its JSON report (`--report`) or its
/// Cucumber Messages (`--messages`, also `sut-launch report --messages` of merged shards).
///
/// Keys: `file:line` where the file says it (JUnit's `file`/`line` attributes, a Messages pickle's `uri` and
/// `location`), and `feature: name` (JUnit's `classname`/`name`, the JSON report's `feature`/`name`). A scenario
/// listed more than once (a retried attempt, a name used twice) counts with its longest time. Scenarios the file
/// does not know take the median of those it does (``Sharding/balanced(_:timings:shards:)``).
///
/// Refused, naming FILE:LINE (exit 3): a negative, NaN, infinite or out-of-range time, a finish before its start,
/// a Messages line that is not JSON. A file that is none of the three formats, or holds no scenario time, is a
/// usage error (exit 2). The file is read whole up to ``FileSystem/readLimit``; a Messages line is parsed only when
/// it is a pickle or a test case's start or finish (attachments are skipped unread).
extension Sharding {
    /// Envelope keys of Cucumber Messages: a file whose first line starts with one is Messages.
    static let messageKeys: Set<String> = ["meta", "source", "gherkinDocument", "pickle", "testRunStarted", "stepDefinition", "parseError"]

    /// Timings by `file:line` and `feature: name`, in seconds.
    /// - Returns: nil when the text is none of the formats, or holds no scenario time.
    /// - Throws: ``InputError`` naming `file` and the line of a malformed or out-of-range number, or of broken JSON.
    package static func timings(from text: String, file: String) throws(InputError) -> [String: Double]? {
        try timings(from: Array(text.utf8), file: file)
    }

    /// Timings from the file's bytes: a UTF-8 byte order mark is skipped (whatever the format), a NUL byte is
    /// refused at once (no format holds one: a binary file is never parsed), JUnit is read in one pass
    /// (``JUnitTimings``) and Messages line by line on bytes.
    package static func timings(from bytes: [UInt8], file: String) throws(InputError) -> [String: Double]? {
        // A killed run's report: no times in it, and "no time" would read as a file of another kind.
        if ReportPlaceholder.isPlaceholder(bytes) { throw InputError(file: file, line: 1, "this is " + ReportPlaceholder.reason) }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let body = bytes.starts(with: bom) ? bytes[3...] : bytes[...]
        if let nul = body.withUnsafeBufferPointer({ ByteSearch.firstIndex(of: 0, in: $0, from: 0) }) {
            let line =
                1 + body[body.startIndex..<(body.startIndex + nul)].split(separator: 0x0A, omittingEmptySubsequences: false).count - 1
            throw InputError(file: file, line: line, "a NUL byte: a timings file is text (JUnit, a JSON report or Cucumber Messages)")
        }
        let first = body.first { !isSpace($0) }
        let found: [String: Double]?
        if let key = firstKey(body), messageKeys.contains(key) {
            found = try messagesTimings(body, file: file)
        } else if first == UInt8(ascii: "{") {
            found = try reportTimings(Array(body), file: file)
        } else if first == UInt8(ascii: "<") {
            found = try body.withUnsafeBufferPointer { (buffer) throws(InputError) in try junitTimings(buffer, file: file) }
        } else {
            found = nil
        }
        guard let found, !found.isEmpty else { return nil }
        return found
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = line.startIndex
        var end = line.endIndex
        while start < end, isSpace(line[start]) { start += 1 }
        while end > start, isSpace(line[end - 1]) { end -= 1 }
        return line[start..<end]
    }

    /// The first key of the text's first JSON object (`{"meta":…` → meta).
    private static func firstKey(_ text: ArraySlice<UInt8>) -> String? {
        let head = text.prefix(200).drop(while: isSpace)
        guard head.first == UInt8(ascii: "{") else { return nil }
        let rest = head.dropFirst().drop { $0 == 0x20 || $0 == 0x09 }
        guard rest.first == UInt8(ascii: "\"") else { return nil }
        let key = rest.dropFirst().prefix { $0 != UInt8(ascii: "\"") }
        return String(decoding: key, as: UTF8.self)
    }

    /// Records `seconds` under `key`, keeping the longest of repeated keys.
    private static func keep(_ seconds: Double, _ key: String, in timings: inout [String: Double]) {
        timings[key] = max(timings[key] ?? 0, seconds)
    }

    /// sut-launch's JSON report: results of feature, name and durationMs.
    /// The results array is only delimited at first, then each result parsed and dropped in turn: a report
    /// of 70 MB (step outputs) never becomes one tree in memory.
    private static func reportTimings(_ bytes: [UInt8], file: String) throws(InputError) -> [String: Double]? {
        let parsed: (root: JSONNode, deferred: JSONDeferredArray?)
        do { parsed = try JSONParser.parse(bytes, deferringArrayAt: "results") } catch {
            throw InputError(file: file, position: error.position, error.message)
        }
        guard let results = parsed.deferred, parsed.root["results"]?.elements != nil else { return nil }
        var timings: [String: Double] = [:]
        for index in 0..<results.count {
            let result: JSONNode
            do { result = try results.element(index) } catch { throw InputError(file: file, position: error.position, error.message) }
            guard let feature = result["feature"]?.string, let name = result["name"]?.string, let node = result["durationMs"] else {
                continue
            }
            let milliseconds: Double? =
                switch node.value {
                case .int(let value): (0...1_000_000_000_000).contains(value) ? Double(value) : nil
                case .double(let value): BoundedNumber.integer(value, in: 0...1_000_000_000_000).map { _ in value }
                default: nil
                }
            guard let milliseconds else {
                throw InputError(file: file, position: node.position, "durationMs is not a number from 0 to 1000000000000 (milliseconds)")
            }
            keep(milliseconds / 1000, "\(feature): \(name)", in: &timings)
        }
        return timings
    }

    /// JUnit: each testcase's classname, name, time, and file and line when written (not with `--junit-strict`).
    private static func junitTimings(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(InputError) -> [String: Double] {
        var timings: [String: Double] = [:]
        for testcase in try JUnitTimings.read(bytes, file: file) {
            let attributes = testcase.attributes
            guard let time = attributes["time"] else { continue }
            guard let seconds = BoundedNumber.decimal(time, in: 0...maxSeconds) else {
                throw InputError(
                    file: file, line: testcase.line,
                    "testcase time '\(time.prefix(40))' is not a number from 0 to \(Int(maxSeconds)) (seconds)")
            }
            if let classname = attributes["classname"], let name = attributes["name"] {
                keep(seconds, "\(classname): \(name)", in: &timings)
            }
            // A line that is not one (overflowing, negative, not a number) is refused as a bad time is, never
            // dropped in silence (the scenario then fell back to its name, or the median). 0: no line (a load error).
            if let at = attributes["line"] {
                guard let number = BoundedNumber.integer(at, in: 0...Int.max) else {
                    throw InputError(
                        file: file, line: testcase.line,
                        "testcase line '\(at.prefix(40))' is not a whole number from 0 to \(Int.max) (a line of the feature file)")
                }
                if let path = attributes["file"], number > 0 { keep(seconds, "\(path):\(number)", in: &timings) }
            }
        }
        return timings
    }

    /// Cucumber Messages: each finished test case's time (finish minus start), keyed by its pickle's `uri:line`.
    private static func messagesTimings(_ text: ArraySlice<UInt8>, file: String) throws(InputError) -> [String: Double] {
        var locations: [String: String] = [:] // pickle id → uri:line
        var cases: [String: String] = [:] // test case id → pickle id
        var starts: [String: (testCase: String, at: Double)] = [:] // testCaseStarted id → case, instant
        var timings: [String: Double] = [:]
        var number = 0
        // Lines cut on bytes, the key read from the first bytes: an attachment's megabytes are never made a String.
        for raw in text.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            let line = trimmed(raw)
            guard !line.isEmpty else { continue }
            // Every line is one JSON object: a line that cannot be one is refused, even one that is never parsed.
            guard line.first == UInt8(ascii: "{"), line.last == UInt8(ascii: "}"), let key = firstKey(raw) else {
                throw InputError(
                    file: file, line: number,
                    "not a JSON line of Cucumber Messages: '\(String(decoding: line.prefix(40), as: UTF8.self).escapingControlCharacters())'"
                )
            }
            guard ["pickle", "testCase", "testCaseStarted", "testCaseFinished"].contains(key) else { continue }
            let node: JSONNode
            do { node = try JSONParser.parse(String(decoding: line, as: UTF8.self)) } catch {
                throw InputError(file: file, line: number, "not a JSON line of Cucumber Messages: \(error.message)")
            }
            guard let body = node[key] else { continue }
            switch key {
            case "pickle":
                if let id = body["id"]?.string, let uri = body["uri"]?.string, let at = body["location"]?["line"]?.int {
                    locations[id] = "\(uri):\(at)"
                }
            case "testCase":
                if let id = body["id"]?.string, let pickle = body["pickleId"]?.string { cases[id] = pickle }
            case "testCaseStarted":
                if let id = body["id"]?.string, let testCase = body["testCaseId"]?.string {
                    starts[id] = (testCase, try instant(body["timestamp"], file: file, line: number))
                }
            default:
                guard let id = body["testCaseStartedId"]?.string, let start = starts[id], let pickle = cases[start.testCase],
                    let location = locations[pickle]
                else { continue }
                let seconds = try instant(body["timestamp"], file: file, line: number) - start.at
                guard (0...maxSeconds).contains(seconds) else {
                    throw InputError(
                        file: file, line: number,
                        "testCaseFinished is \(Int(seconds)) s after its start; a time is from 0 to \(Int(maxSeconds)) s")
                }
                keep(seconds, location, in: &timings)
            }
        }
        return timings
    }

    /// A Messages timestamp (`{"seconds":…,"nanos":…}`) in seconds since the epoch.
    private static func instant(_ node: JSONNode?, file: String, line: Int) throws(InputError) -> Double {
        let nanosNode = node?["nanos"]
        guard let seconds = node?["seconds"]?.int, (0...100_000_000_000).contains(seconds),
            let nanos = nanosNode == nil ? 0 : nanosNode?.int, (0...999_999_999).contains(nanos)
        else {
            throw InputError(file: file, line: line, "timestamp is not {\"seconds\": 0 to 10^11, \"nanos\": 0 to 999999999}")
        }
        return Double(seconds) + Double(nanos) / 1e9
    }
}
