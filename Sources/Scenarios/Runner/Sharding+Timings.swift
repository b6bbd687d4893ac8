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
        let found: [String: Double]?
        if let key = firstKey(text), messageKeys.contains(key) {
            found = try messagesTimings(text, file: file)
        } else if text.hasPrefix("{") {
            found = try reportTimings(text, file: file)
        } else if text.contains("<testcase") {
            found = try junitTimings(text, file: file)
        } else {
            found = nil
        }
        guard let found, !found.isEmpty else { return nil }
        return found
    }

    /// The first key of the text's first JSON object (`{"meta":…` → meta).
    private static func firstKey(_ text: String) -> String? {
        let head = text.utf8.prefix(200).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
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
    private static func reportTimings(_ text: String, file: String) throws(InputError) -> [String: Double]? {
        let root: JSONNode
        do { root = try JSONParser.parse(text) } catch { throw InputError(file: file, position: error.position, error.message) }
        guard let results = root["results"]?.elements else { return nil }
        var timings: [String: Double] = [:]
        for result in results {
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
    private static func junitTimings(_ text: String, file: String) throws(InputError) -> [String: Double] {
        var timings: [String: Double] = [:]
        var line = 1
        for (number, element) in text.split(separator: "<testcase", omittingEmptySubsequences: false).enumerated() {
            defer { line += element.utf8.count { $0 == 0x0A } }
            guard number > 0 else { continue }
            let head = element.prefix { $0 != ">" }
            guard let time = attribute("time", in: head) else { continue }
            guard let seconds = BoundedNumber.decimal(time, in: 0...maxSeconds) else {
                throw InputError(
                    file: file, line: line, "testcase time '\(time.prefix(40))' is not a number from 0 to \(Int(maxSeconds)) (seconds)")
            }
            if let classname = attribute("classname", in: head), let name = attribute("name", in: head) {
                keep(seconds, "\(classname): \(name)", in: &timings)
            }
            if let path = attribute("file", in: head), let at = attribute("line", in: head),
                BoundedNumber.integer(at, in: 1...Int.max) != nil
            {
                keep(seconds, "\(path):\(at)", in: &timings)
            }
        }
        return timings
    }

    /// Cucumber Messages: each finished test case's time (finish minus start), keyed by its pickle's `uri:line`.
    private static func messagesTimings(_ text: String, file: String) throws(InputError) -> [String: Double] {
        var locations: [String: String] = [:] // pickle id → uri:line
        var cases: [String: String] = [:] // test case id → pickle id
        var starts: [String: (testCase: String, at: Double)] = [:] // testCaseStarted id → case, instant
        var timings: [String: Double] = [:]
        var number = 0
        // Lines cut on bytes, the key read from the first bytes: an attachment's megabytes are never made a String.
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            guard let key = firstKey(String(decoding: line.prefix(40), as: UTF8.self)),
                ["pickle", "testCase", "testCaseStarted", "testCaseFinished"].contains(key)
            else { continue }
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
