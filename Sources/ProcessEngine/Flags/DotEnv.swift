import AutomationSupport
import MockServer

/// Reads dotenv files: `KEY=value` lines, `export KEY=value`, `#` comments, blank lines, single quotes
/// (literal), double quotes (with \n, \t, \", \\ escapes, may span lines), unquoted values trimmed and cut
/// at ` #`. Lines end at LF, CRLF or CR; a leading byte order mark is dropped.
package enum DotEnv {
    /// Parses a dotenv text; later lines override earlier ones.
    /// - Throws: ``InputError`` naming the file and line.
    package static func parse(_ text: String, file: String) throws(InputError) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        // LF, CRLF or a lone CR end a line (python-dotenv reads with universal newlines); a BOM is not text.
        let lines = text.droppingByteOrderMark().splitLines(.universal).map(String.init)
        var index = 0
        while index < lines.count {
            let lineNumber = index + 1
            var line = Substring(lines[index])
            index += 1
            line = line.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") || line.hasPrefix("export\t") { line = line.dropFirst(7).drop { $0 == " " || $0 == "\t" } }
            guard let equals = line.firstIndex(of: "=") else {
                throw InputError(file: file, line: lineNumber, "expected KEY=value, found '\(line)'")
            }
            let key = line[..<equals].trimmingCharacters(in: " \t")
            guard EnvironmentVariable.isValidName(key) else {
                throw InputError(
                    file: file, line: lineNumber, "'\(key)' is not a valid variable name (letters, digits, _; not starting with a digit)")
            }
            var rest = line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            let value: String
            if rest.first == "'" {
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: "'") else {
                    throw InputError(file: file, line: lineNumber, "unterminated single quote in the value of \(key)")
                }
                value = String(rest[..<close])
                try checkTrailing(rest[rest.index(after: close)...], file: file, line: lineNumber, key: key)
            } else if rest.first == "\"" {
                value = try doubleQuoted(String(rest.dropFirst()), lines: lines, index: &index, file: file, line: lineNumber, key: key)
            } else {
                var text = String(rest)
                if let comment = text.firstRange(of: " #") ?? text.firstRange(of: "\t#") { text = String(text[..<comment.lowerBound]) }
                value = text.trimmingCharacters(in: " \t")
            }
            if let problem = EnvironmentVariable.problem(name: key, value: value) {
                throw InputError(file: file, line: lineNumber, problem)
            }
            result.append((key: key, value: value))
        }
        return result
    }

    /// A double-quoted value from just after its opening quote; it may go on over the following lines
    /// (`index` moves past those it takes).
    private static func doubleQuoted(
        _ first: String, lines: [String], index: inout Int, file: String, line: Int, key: String
    ) throws(InputError) -> String {
        var text = first
        var decoded = ""
        var closed = false
        while !closed {
            var iterator = text.makeIterator()
            var consumed = 0
            while let character = iterator.next() {
                consumed += 1
                if character == "\\" {
                    consumed += 1
                    switch iterator.next() {
                    case "n": decoded.append("\n")
                    case "t": decoded.append("\t")
                    case "r": decoded.append("\r")
                    case "\"": decoded.append("\"")
                    case "\\": decoded.append("\\")
                    case "$": decoded.append("$")
                    case let other?:
                        decoded.append("\\")
                        decoded.append(other)
                    case nil: decoded.append("\\")
                    }
                } else if character == "\"" {
                    closed = true
                    break
                } else {
                    decoded.append(character)
                }
            }
            if closed {
                try checkTrailing(Substring(text.dropFirst(consumed)), file: file, line: line, key: key)
            } else {
                guard index < lines.count else {
                    throw InputError(file: file, line: line, "unterminated double quote in the value of \(key)")
                }
                decoded.append("\n")
                text = lines[index]
                index += 1
            }
        }
        return decoded
    }

    private static func checkTrailing(_ rest: Substring, file: String, line: Int, key: String) throws(InputError) {
        let trimmed = rest.drop { $0 == " " || $0 == "\t" }
        if !trimmed.isEmpty && !trimmed.hasPrefix("#") {
            throw InputError(file: file, line: line, "unexpected text after the quoted value of \(key): '\(trimmed)'")
        }
    }

}
