import AutomationSupport

// MARK: - Header parameters as Commons FileUpload's ParameterParser reads them

extension MultipartBody {
    /// The parameters of `header` (`form-data; name="f"`, `multipart/form-data; boundary=XyZ`) as FileUpload's
    /// ParameterParser reads them, names lower-cased: split at the first of `separators` the header holds (only that
    /// one: `multipart/mixed; charset=x, boundary=XyZ` has no boundary), a separator inside double quotes kept (a
    /// backslash escapes a quote; quotes and escapes stay in the value but for one pair around it), names and values
    /// trimmed of Java's white space. A parameter without `=`, or with an empty value (`name=`, `name=""`), is nil;
    /// the text before the first separator is a parameter too; a name given twice keeps its last value.
    static func parameters(of header: String, separators: [Unicode.Scalar]) -> [String: String?] {
        let scalars = Array(header.unicodeScalars)
        var separator = separators[0]
        var first = scalars.count
        for candidate in separators {
            if let at = scalars.firstIndex(of: candidate), at < first { (first, separator) = (at, candidate) }
        }
        var parameters: [String: String?] = [:]
        var position = 0
        while position < scalars.count {
            let nameStart = position
            while position < scalars.count && scalars[position] != "=" && scalars[position] != separator { position += 1 }
            let name = token(scalars, nameStart, position, quoted: false)
            var value: String?
            if position < scalars.count && scalars[position] == "=" {
                position += 1
                let valueStart = position
                var quoted = false
                var escaped = false
                while position < scalars.count {
                    let scalar = scalars[position]
                    if !quoted && scalar == separator { break }
                    if !escaped && scalar == "\"" { quoted.toggle() }
                    escaped = !escaped && scalar == "\\"
                    position += 1
                }
                value = token(scalars, valueStart, position, quoted: true)
            }
            if position < scalars.count && scalars[position] == separator { position += 1 }
            if let name, !name.isEmpty { parameters[name.lowercased()] = .some(value) }
        }
        return parameters
    }

    /// ParameterParser's `getToken`: trimmed of Java's white space, one pair of surrounding quotes taken off a value,
    /// nil when nothing is left.
    private static func token(_ scalars: [Unicode.Scalar], _ start: Int, _ end: Int, quoted: Bool) -> String? {
        var (start, end) = (start, end)
        while start < end && ResponseTemplate.Renderer.isJavaWhitespace(scalars[start]) { start += 1 }
        while end > start && ResponseTemplate.Renderer.isJavaWhitespace(scalars[end - 1]) { end -= 1 }
        if quoted && end - start >= 2 && scalars[start] == "\"" && scalars[end - 1] == "\"" {
            start += 1
            end -= 1
        }
        guard end > start else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<end])
        return text
    }

    /// The part's form-data name, which FileUpload requires of a part it keeps: a `Content-Disposition` starting
    /// with `form-data` whose `name` parameter has a value (Java-trimmed; `name=" "` is the empty name, a part;
    /// `name=""`, `name=` and a bare `name` are none).
    static func fieldName(_ headers: HTTPHeaders) -> String? {
        guard let disposition = headers["Content-Disposition"], disposition.hasASCIIPrefixIgnoringCase("form-data") else { return nil }
        guard case .some(.some(let name)) = parameters(of: disposition, separators: [";"])["name"] else { return nil }
        return String(decoding: javaTrimmed(Array(name.utf8)[...]), as: UTF8.self)
    }

    /// Whether a part inside a `multipart/mixed` part names a file (FileUpload keeps only those there): a
    /// `Content-Disposition` starting with `form-data` or `attachment` that has a `filename` parameter, even empty.
    static func namesFile(_ headers: HTTPHeaders) -> Bool {
        guard let disposition = headers["Content-Disposition"],
            disposition.hasASCIIPrefixIgnoringCase("form-data") || disposition.hasASCIIPrefixIgnoringCase("attachment")
        else { return false }
        return parameters(of: disposition, separators: [";"]).keys.contains("filename")
    }

    /// The boundary's bytes from a multipart `Content-Type` (FileUpload's `getBoundary`: parameters separated by the
    /// first of `;` and `,`), or why there is none this server reads as WireMock does.
    static func boundary(in contentType: String) -> (bytes: [UInt8]?, problem: String?) {
        guard case .some(.some(let text)) = parameters(of: contentType, separators: [";", ","])["boundary"] else {
            let hint =
                contentType.contains(",") && contentType.contains(";") ? " (parameters are split at the first of ';' and ',' only)" : ""
            return (nil, "its Content-Type has no boundary\(hint)")
        }
        // WireMock takes the ISO-8859-1 bytes of the header's characters and decodes RFC 2047 words (=?charset?B?…?=)
        // first: refused by name rather than read differently.
        guard text.unicodeScalars.allSatisfy({ $0.value < 0x80 }), !text.contains("=?") else {
            return (nil, "its boundary \"\(text.prefix(70))\" is not plain ASCII (WireMock would read it differently; write it plainly)")
        }
        // FileUpload's stream buffer (4096 bytes) must hold CR LF -- boundary and one byte more.
        guard text.utf8.count + 5 <= 4096 else { return (nil, "its boundary is longer than 4091 bytes (WireMock fails it)") }
        return (Array(text.utf8), nil)
    }
}
