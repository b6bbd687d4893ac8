import AutomationSupport

/// The failed test cases of a JUnit XML report, read without an XML library: a linear scan of `<testcase>` elements
/// (no entity expansion, no DTD, no external anything). A document type declaration or an entity other than XML's
/// five and character references is refused, naming its line: such a file is not a report this tool or Surefire
/// wrote, and expanding it is how XML attacks work (XXE, billion laughs).
enum RerunJUnit {
    /// The test cases holding `<failure`, `<error` or `<rerunFailure`/`<rerunError` (a flaky pass holds only
    /// `<flakyFailure>`; a skipped or quarantined one `<skipped>`), each by `file`/`line` when it has them, else by
    /// `classname` (the feature) and `name`.
    static func entries(_ bytes: [UInt8], file: String) throws(RerunFile.Problem) -> [RerunFile.Entry] {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw RerunFile.Problem(file, 1, "not UTF-8 text") }
        let scalars = Array(text.utf8)
        var entries: [RerunFile.Entry] = []
        var line = 1
        var index = 0
        var current: (attributes: [String: String], at: Int, failed: Bool)?
        while index < scalars.count {
            let byte = scalars[index]
            if byte == 0x0A { line += 1 }
            guard byte == UInt8(ascii: "<") else {
                if byte == UInt8(ascii: "&") { try checkReference(scalars, index, file: file, line: line) }
                index += 1
                continue
            }
            let tag = name(scalars, index + 1)
            if tag.hasPrefix("!DOCTYPE") || tag.hasPrefix("!ENTITY") {
                throw RerunFile.Problem(file, line, "the XML declares a document type or entities; refused (no DTD is read)")
            }
            switch tag {
            case "testcase":
                let (attributes, end, selfClosing) = try attributesOf(scalars, from: index, file: file, line: &line)
                index = end
                if !selfClosing { current = (attributes, line, false) }
                continue
            case "failure", "error", "rerunFailure", "rerunError": current?.failed = true
            case "/testcase":
                if let done = current, done.failed {
                    entries.append(try entry(done.attributes, at: done.at, file: file))
                    guard entries.count <= RerunFile.entryLimit else {
                        throw RerunFile.Problem(file, line, "more than \(RerunFile.entryLimit) failed test cases")
                    }
                }
                current = nil
            default: break
            }
            index += 1
        }
        return entries
    }

    /// The element name after `<` (with a leading `/` or `!`).
    private static func name(_ bytes: [UInt8], _ start: Int) -> String {
        let stops: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")]
        var end = start
        if end < bytes.count, bytes[end] == UInt8(ascii: "/") || bytes[end] == UInt8(ascii: "!") { end += 1 }
        while end < bytes.count, end - start < 20, !stops.contains(bytes[end]) { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The attributes of the start tag at `start`, unescaped; where the tag ends; whether it closes itself.
    private static func attributesOf(_ bytes: [UInt8], from start: Int, file: String, line: inout Int) throws(RerunFile.Problem)
        -> ([String: String], Int, Bool)
    {
        var attributes: [String: String] = [:]
        var index = start + "<testcase".utf8.count
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            if byte == UInt8(ascii: ">") { return (attributes, index + 1, bytes[index - 1] == UInt8(ascii: "/")) }
            if byte == UInt8(ascii: "=") {
                var nameStart = index
                while nameStart > start, ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[nameStart - 1]) { nameStart -= 1 }
                let key = String(decoding: bytes[nameStart..<index], as: UTF8.self)
                guard index + 1 < bytes.count, bytes[index + 1] == 0x22 || bytes[index + 1] == 0x27 else {
                    throw RerunFile.Problem(file, line, "an attribute of <testcase> without quotes")
                }
                let quote = bytes[index + 1]
                var end = index + 2
                while end < bytes.count, bytes[end] != quote {
                    if bytes[end] == UInt8(ascii: "&") { try checkReference(bytes, end, file: file, line: line) }
                    end += 1
                }
                attributes[key] = unescape(String(decoding: bytes[(index + 2)..<min(end, bytes.count)], as: UTF8.self))
                index = end + 1
                continue
            }
            index += 1
        }
        throw RerunFile.Problem(file, line, "a <testcase> start tag that never ends")
    }

    /// `&name;` must be one of XML's five, or a character reference: anything else needs a DTD, which is refused.
    private static func checkReference(_ bytes: [UInt8], _ index: Int, file: String, line: Int) throws(RerunFile.Problem) {
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
            return .location(path: path, line: value, at: line)
        }
        guard let name = attributes["name"] else { throw RerunFile.Problem(file, line, "a <testcase> without a name") }
        return .name(feature: attributes["classname"] ?? "", scenario: name, at: line)
    }
}
