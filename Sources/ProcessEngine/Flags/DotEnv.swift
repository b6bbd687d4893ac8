import AutomationSupport
import MockServer

/// Reads dotenv files: `KEY=value` lines, `export KEY=value`, `#` comments, blank lines, single quotes
/// (literal), double quotes (with \n, \t, \r, \", \\ escapes, may span lines), unquoted values trimmed and cut
/// at ` #`. Lines end at LF, CRLF or CR; a leading byte order mark is dropped.
///
/// What other dotenv readers disagree on is refused at its line, never read one way in silence: a variable given
/// twice (in one file or across the files of a run; the last one would win unseen), and `${NAME}` or `$NAME` outside
/// single quotes (docker compose and python-dotenv expand them, others do not), and `$$` there likewise (compose reads
/// it as one `$`): single quotes keep a `$` as written; in double quotes `\$`, `\'`, `\a`, `\b`, `\f`, `\v` (python-dotenv
/// reads them otherwise), and an unquoted value with white space other than a space or tab at either end.
package struct DotEnv {
    /// The variables read so far, in order.
    package private(set) var variables: [(key: String, value: String)] = []
    /// Where each was given: `file:line`.
    private var origins: [String: String] = [:]

    package init() {}

    /// Parses one file's text into ``variables``.
    /// - Throws: ``InputError`` naming the file and line (and the earlier line of a name given twice).
    package mutating func parse(_ text: String, file: String) throws(InputError) {
        for (key, value, line) in try Self.entries(text, file: file) {
            if let earlier = origins[key] {
                throw InputError(
                    file: file, line: line, "\(key) is given twice: at \(earlier) and here; keep one (the last would win unseen)")
            }
            origins[key] = "\(file):\(line)"
            variables.append((key: key, value: value))
        }
    }

    /// Parses a dotenv text on its own.
    /// - Throws: ``InputError`` naming the file and line.
    package static func parse(_ text: String, file: String) throws(InputError) -> [(key: String, value: String)] {
        var reader = DotEnv()
        try reader.parse(text, file: file)
        return reader.variables
    }

    /// What an error quotes of a line that is not `KEY=value`: a leading name only where a `:` or a blank follows it
    /// (the YAML habit `API_TOKEN: s3cr3t`, r11 R11-3), the rest counted but never shown; a line with no such name (a
    /// PEM body line, a value continued with `\`, r12 R12-1) is only counted: it may be a secret whole.
    /// - Parameter isKey: `text` stands before an `=`: a name whole, shown when it is one word.
    static func shownStart(_ text: Substring, isKey: Bool = false) -> String {
        let name = text.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-") }
        let rest = text.count - name.count
        if isKey && rest == 0 { return "'\(name)'" }
        // A name is what stands before a value: a word with nothing after it but blanks, a `:` or a comment may itself
        // be the secret (r14 R14-6: `MIIE…s3cr3t ` with a trailing blank, `ghp_… # prod token` were shown whole).
        let after = text.dropFirst(name.count)
        let value = after.drop { $0 == ":" || $0 == " " || $0 == "\t" }
        guard !name.isEmpty, let next = after.first, next == ":" || next == " " || next == "\t",
            !value.allSatisfy({ $0.isWhitespace }), value.first != "#"
        else {
            return "a line of \(text.count) character\(text.count == 1 ? "" : "s") (not shown: it may be a secret)"
        }
        return "'\(name)' and \(rest) more character\(rest == 1 ? "" : "s") (not shown: a value may be a secret)"
    }

    private static func entries(_ text: String, file: String) throws(InputError) -> [(String, String, Int)] {
        var result: [(String, String, Int)] = []
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
                throw InputError(file: file, line: lineNumber, "expected KEY=value, found \(shownStart(line))")
            }
            let key = line[..<equals].trimmingCharacters(in: " \t")
            guard EnvironmentVariable.isValidName(key) else {
                throw InputError(
                    file: file, line: lineNumber,
                    "\(shownStart(Substring(key), isKey: true)) is not a valid variable name (letters, digits, _; not starting with a digit)"
                )
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
                try refuseReference(in: Substring(value), file: file, line: lineNumber, key: key)
                try refuseOuterSpace(value, file: file, line: lineNumber, key: key)
            }
            if let problem = EnvironmentVariable.problem(name: key, value: value) {
                throw InputError(file: file, line: lineNumber, problem)
            }
            result.append((key, value, lineNumber))
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
        var unescapedDollar = false
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
                    // R10C-5: python-dotenv reads `\$` as a backslash and a `$` (then expands `${…}`), and `\'`, `\a`, `\b`,
                    // `\f`, `\v` as `'` and control characters, which sut-launch kept as written: the same file gave two
                    // values in silence. Refused, as `$$` is.
                    case let other? where ["$", "'", "a", "b", "f", "v"].contains(other):
                        throw InputError(file: file, line: line, escapeProblem(key, other))
                    case let other?:
                        decoded.append("\\")
                        decoded.append(other)
                    case nil: decoded.append("\\")
                    }
                } else if character == "\"" {
                    closed = true
                    break
                } else {
                    if decoded.last == "$", unescapedDollar, isReferenceStart(character) || character == "$" {
                        throw InputError(file: file, line: line, referenceProblem(key, twoDollars: character == "$"))
                    }
                    decoded.append(character)
                    unescapedDollar = character == "$"
                    continue
                }
                unescapedDollar = false
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

    /// `$NAME` or `${NAME}` in `value` (unquoted: no escapes).
    private static func refuseReference(in value: Substring, file: String, line: Int, key: String) throws(InputError) {
        var previous: Character?
        for character in value {
            if previous == "$", isReferenceStart(character) || character == "$" {
                throw InputError(file: file, line: line, referenceProblem(key, twoDollars: character == "$"))
            }
            previous = character
        }
    }

    private static func isReferenceStart(_ character: Character) -> Bool {
        character == "{" || character == "_" || (character.isASCII && character.isLetter)
    }

    /// `$NAME`/`${NAME}`, or `$$` (C3: docker compose reads it as one `$`, python-dotenv and sut-launch kept both; the
    /// same file gave two values, so it is refused rather than read either way).
    private static func referenceProblem(_ key: String, twoDollars: Bool = false) -> String {
        (twoDollars
            ? "the value of \(key) holds $$, which docker compose reads as one $ and python-dotenv as two: "
            : "the value of \(key) holds a $ reference, which docker compose and python-dotenv expand and sut-launch does not: ")
            + "put the value in single quotes to keep it as written, or give the value with -e"
    }

    /// A backslash escape in double quotes that python-dotenv reads otherwise than sut-launch (`\$`, `\'`, `\a`…).
    private static func escapeProblem(_ key: String, _ escaped: Character) -> String {
        let python = escaped == "$" ? "a backslash and a $ (and expands a ${…} after it)" : escaped == "'" ? "a '" : "a control character"
        return "the double-quoted value of \(key) holds \\\(escaped), which python-dotenv reads as \(python) and sut-launch does "
            + "not: the same file would give two values; put the value in single quotes to keep it as written, or give it with -e"
    }

    /// An unquoted value that starts or ends with white space other than a space or tab (U+2028, NBSP): python-dotenv
    /// strips it, sut-launch kept it (R10C-5).
    private static func refuseOuterSpace(_ value: String, file: String, line: Int, key: String) throws(InputError) {
        guard let odd = [value.first, value.last].compactMap({ $0 }).first(where: \.isWhitespace) else { return }
        let code = odd.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
        throw InputError(
            file: file, line: line,
            "the unquoted value of \(key) starts or ends with white space \(code), which python-dotenv strips and sut-launch "
                + "would keep: put the value in quotes (the quotes keep it), or leave the space out")
    }

    private static func checkTrailing(_ rest: Substring, file: String, line: Int, key: String) throws(InputError) {
        let trimmed = rest.drop { $0 == " " || $0 == "\t" }
        if !trimmed.isEmpty && !trimmed.hasPrefix("#") {
            // R10C-6: the text is not quoted: it is part of a value, which may be a secret.
            throw InputError(
                file: file, line: line,
                "unexpected text after the quoted value of \(key) (\(trimmed.count) characters, not shown: a value may be a secret): "
                    + "put the whole value in the quotes, and a # before a comment")
        }
    }

}
