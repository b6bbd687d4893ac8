// MARK: - What the JSONPath subset refuses at load, and how it says so

extension JSONPath {
    /// The subset, for messages.
    static let supported =
        "$, .name, ['name'], [0], [-1], [*], .*, ..name and filters [?(@.a.b)] / [?(@.a == 'x')] with == != < > <= >= and =~ /regex/"

    static func refused(_ inside: some StringProtocol, _ why: String, _ source: String) -> Error {
        Error(message: "JSONPath \"\(source)\": [\(inside.prefix(40))] \(why)")
    }

    /// A member name after `.` or `..`: anything that looks like a function (`size()`), an operator or
    /// a quote is outside the subset, refused at load rather than silently never matching.
    static func checkName(_ name: Substring, source: String) throws(Error) {
        if let bad = name.first(where: { "()=~!<>?@,:'\" \\/|&".contains($0) }) {
            let what = name.contains("(") ? "functions like \(name) are" : "'\(bad)' in a member name is"
            throw Error(message: "JSONPath \"\(source)\": \(what) not supported; supported: \(supported)")
        }
    }
}
