import AutomationSupport

/// The failed test cases of a JUnit XML report, read without an XML library: a linear scan of `<testcase>` elements
/// (no entity expansion, no DTD, no external anything). The file must be well-formed XML as far as reading it
/// needs: one root element, every element closed by its own end tag, nothing cut short; a damaged report could hide
/// a failure (a false green), so it is refused, naming the line. A document type declaration or an entity other than XML's
/// five and character references is refused, naming its line: such a file is not a report this tool or Surefire
/// wrote, and expanding it is how XML attacks work (XXE, billion laughs).
enum RerunJUnit {
    /// The test cases holding `<failure`, `<error` or `<rerunFailure`/`<rerunError` (a flaky pass holds only
    /// `<flakyFailure>`; a skipped or quarantined one `<skipped>`), each by `file`/`line` when it has them, else by
    /// `classname` (the feature) and `name`.
    ///
    /// The run's own entries (``runEntryNames``: `AfterAll hooks`, `load feature files`…) are no scenario and name no
    /// feature file: never an entry. A run that failed only in an AfterAll hook has no failed scenario: every scenario
    /// that ran is, as its rerun file lists them (R10B-5: the hook's entry was taken for a feature file, exit 2).
    static func entries(_ bytes: [UInt8], file: String) throws(RerunFile.Problem) -> [RerunFile.Entry] {
        let text = try RerunFile.text(bytes, file: file)
        var scan = Scan(bytes: Array(text.utf8), file: file)
        var entries: [RerunFile.Entry] = []
        var ran: [(attributes: [String: String], at: Int)] = []
        var hooksFailed = false
        var current: (attributes: [String: String], at: Int, failed: Bool, message: String?)?
        while let tag = try scan.nextTag() {
            switch tag.name {
            case "testcase":
                let (attributes, selfClosing) = try attributesOf(
                    scan.bytes, tag: tag.range, file: file, line: tag.line, element: "testcase")
                if !selfClosing {
                    current = (attributes, tag.line, false, nil)
                } else if !isRunEntry(attributes) {
                    ran.append((attributes, tag.line))
                }
            case "failure", "error", "rerunFailure", "rerunError":
                if current?.failed == false {
                    current?.message = try attributesOf(scan.bytes, tag: tag.range, file: file, line: tag.line, element: tag.name).0[
                        "message"]
                }
                current?.failed = true
            // A scenario the run never started (--fail-fast, an interruption) failed the run: the run's rerun file names
            // it, and so does its JUnit (`<skipped message="not run: …"/>`); a quarantined skip does not.
            case "skipped":
                let (attributes, _) = try attributesOf(scan.bytes, tag: tag.range, file: file, line: tag.line, element: "skipped")
                if attributes["message"]?.hasPrefix("not run") == true { current?.failed = true }
            case "/testcase":
                if let done = current, isRunEntry(done.attributes) {
                    hooksFailed = hooksFailed || (done.failed && isHookFailure(done.attributes, message: done.message))
                } else if let done = current {
                    ran.append((done.attributes, done.at))
                    if done.failed { entries.append(try entry(done.attributes, at: done.at, file: file)) }
                    guard entries.count <= RerunFile.entryLimit else {
                        throw RerunFile.Problem(file, tag.line, "more than \(RerunFile.entryLimit) failed test cases")
                    }
                }
                current = nil
            default: break
            }
        }
        guard entries.isEmpty, hooksFailed else { return entries }
        guard ran.count <= RerunFile.entryLimit else {
            throw RerunFile.Problem(file, ran[RerunFile.entryLimit].at, "more than \(RerunFile.entryLimit) test cases to rerun")
        }
        return try ran.map { testCase throws(RerunFile.Problem) in try entry(testCase.attributes, at: testCase.at, file: file) }
    }

    /// The names `test` and `report` give their entries for the run itself, under the classname `sut-launch`.
    static let runEntryNames: Set<String> = [
        "load feature files", "read the command line", "write the run's outputs", "start the run", "interrupted run",
        "BeforeAll hooks", "AfterAll hooks", "run hooks",
    ]

    /// An entry for the run, not a scenario: `sut-launch`'s classname, one of its names, and no feature file.
    private static func isRunEntry(_ attributes: [String: String]) -> Bool {
        attributes["classname"] == "sut-launch" && runEntryNames.contains(attributes["name"] ?? "")
            && attributes["file"]?.hasSuffix(".feature") != true
    }

    /// A run entry that says a BeforeAll/AfterAll hook failed: a hook's own (`AfterAll hooks`, not the one an
    /// interruption adds, which the rerun file does not count either) or `report`'s `run hooks`.
    private static func isHookFailure(_ attributes: [String: String], message: String?) -> Bool {
        switch attributes["name"] {
        case "run hooks": true
        case "AfterAll hooks": message?.hasPrefix("interrupted by ") != true
        default: false
        }
    }

    /// The element name after `<` (with a leading `/` or `!`).
    static func name(_ bytes: [UInt8], _ start: Int) -> String {
        let stops: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")]
        var end = start
        if end < bytes.count, bytes[end] == UInt8(ascii: "/") || bytes[end] == UInt8(ascii: "!") { end += 1 }
        while end < bytes.count, end - start < 20, !stops.contains(bytes[end]) { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The attributes of the start tag `tag` (from `<` to `>`), unescaped; whether it closes itself.
    private static func attributesOf(_ bytes: [UInt8], tag: Range<Int>, file: String, line: Int, element: String)
        throws(RerunFile.Problem) -> ([String: String], Bool)
    {
        var attributes: [String: String] = [:]
        var index = tag.lowerBound + 1 + element.utf8.count
        while index < tag.upperBound {
            guard bytes[index] == UInt8(ascii: "=") else {
                index += 1
                continue
            }
            var nameStart = index
            while nameStart > tag.lowerBound, ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[nameStart - 1]) { nameStart -= 1 }
            let key = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard index + 1 < tag.upperBound, bytes[index + 1] == 0x22 || bytes[index + 1] == 0x27 else {
                throw RerunFile.Problem(file, line, "an attribute of <\(element)> without quotes")
            }
            let quote = bytes[index + 1]
            var end = index + 2
            while end < tag.upperBound, bytes[end] != quote { end += 1 }
            attributes[key] = unescape(String(decoding: bytes[(index + 2)..<end], as: UTF8.self))
            index = end + 1
        }
        return (attributes, bytes[tag.upperBound - 2] == UInt8(ascii: "/"))
    }

    /// `&name;` must be one of XML's five, or a character reference: anything else needs a DTD, which is refused.
    static func checkReference(_ bytes: [UInt8], _ index: Int, file: String, line: Int) throws(RerunFile.Problem) {
        var end = index + 1
        while end < bytes.count, end - index < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        let name = String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
        guard ["amp", "lt", "gt", "quot", "apos"].contains(name) || name.hasPrefix("#") else {
            throw RerunFile.Problem(
                file, line, "the entity &\(name.prefix(12).escapingControlCharacters()); is not XML's own; refused (no DTD is read)")
        }
    }

    private static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let name = rest[rest.index(after: amp)..<semicolon]
            switch name {
            case "amp": output += "&"
            case "lt": output += "<"
            case "gt": output += ">"
            case "quot": output += "\""
            case "apos": output += "'"
            default:
                let digits = name.dropFirst()
                let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                if let value, let scalar = Unicode.Scalar(value) { output.unicodeScalars.append(scalar) }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return output + rest
    }

    /// The entry of a failed test case: by `file` and `line`, else by `classname` and `name`.
    private static func entry(_ attributes: [String: String], at line: Int, file: String) throws(RerunFile.Problem) -> RerunFile.Entry {
        if let path = attributes["file"], let number = attributes["line"] {
            guard let value = BoundedNumber.integer(number, in: NumericLimits.featureLine) else {
                throw RerunFile.Problem(file, line, "line=\"\(number.prefix(30).escapingControlCharacters())\" is not a line number")
            }
            return .location(path: path, line: value, at: line, name: attributes["name"])
        }
        guard let name = attributes["name"] else { throw RerunFile.Problem(file, line, "a <testcase> without a name") }
        return .name(feature: attributes["classname"] ?? "", scenario: name, at: line)
    }
}
