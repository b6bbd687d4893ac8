import AutomationSupport

/// One of WireMock's `multipartPatterns`: the request must be multipart, and `ANY` (the default) of its parts, or
/// `ALL` of them, must match every header matcher and body pattern given. The pattern's `name` is a label, not a
/// matcher (WireMock ignores it too); a part is told by its `Content-Disposition` header.
struct MultipartMatcher: Sendable {
    enum MatchingType: String, Sendable {
        case any = "ANY"
        case all = "ALL"
    }

    var matchingType: MatchingType = .any
    var name: String?
    var headers: [(name: String, matcher: ValueMatcher)] = []
    var bodyPatterns: [ValueMatcher] = []

    /// Whether the request's parts satisfy the pattern. `ALL` over no parts does not (WireMock answers 500 there).
    func matches(_ parsed: MultipartBody.Parsed, budget: inout Int) -> Bool {
        guard case .parts(let parts) = parsed, !parts.isEmpty else { return false }
        // Loops, not closures: this runs for every multipart mapping a request reaches.
        let any = matchingType == .any
        for part in parts {
            guard budget >= 0 else { return false }
            if matches(part: part, budget: &budget) == any { return any }
        }
        return !any
    }

    func matches(part: MultipartBody.Part, budget: inout Int) -> Bool {
        guard part.notUTF8 == nil else { return false } // headers read with U+FFFD match nothing (the near miss says why)
        for (name, matcher) in headers where !matcher.matches(field: name, in: part.headers, budget: &budget) { return false }
        guard !bodyPatterns.isEmpty else { return true }
        budget -= MatchBudget.decoding(part.body.count)
        guard budget >= 0 else { return false }
        // The part's text made once for all its body patterns.
        let text = String(decoding: part.body, as: UTF8.self)
        for pattern in bodyPatterns {
            guard budget >= 0, pattern.matches(body: part.body, text: text, budget: &budget) else { return false }
        }
        return true
    }

    /// `any part with header Content-Disposition containing "name=\"info\"" and body equal to "x"`.
    var description: String {
        var text = matchingType == .any ? "any part" : "every part"
        if let name { text += " (\"\(name.prefix(80))\")" }
        let conditions =
            headers.map { "header \($0.name) \($0.matcher.description)" } + bodyPatterns.map { "body \($0.description)" }
        return conditions.isEmpty ? text : text + " with " + conditions.joined(separator: " and ")
    }

    /// The near miss: what the request holds instead.
    func mismatch(_ parsed: MultipartBody.Parsed, contentType: String?, budget: inout Int) -> Mismatch? {
        if matches(parsed, budget: &budget) { return nil }
        let actual: String
        switch parsed {
        case .notMultipart: actual = "a body that is not multipart (Content-Type \(contentType.map { "\"\($0.prefix(80))\"" } ?? "absent"))"
        case .malformed(let reason): actual = "a multipart body WireMock cannot read: \(reason)"
        case .parts(let parts):
            let failing = parts.filter { budget >= 0 && !matches(part: $0, budget: &budget) }.map(Self.shown)
            actual =
                parts.isEmpty
                ? "no parts with a form-data name"
                : "\(parts.count) part\(parts.count == 1 ? "" : "s"), \(failing.count) not matching ("
                    + failing.prefix(5).joined(separator: ", ") + (failing.count > 5 ? ", …" : "") + ")"
        }
        return Mismatch(field: "multipart", expected: description, actual: actual, weight: 1)
    }

    /// A part in a near miss: its form-data name, and why it matches nothing when its headers are not UTF-8.
    private static func shown(_ part: MultipartBody.Part) -> String {
        let name = part.name
        guard let (offset, byte) = part.notUTF8 else { return "\"\(name.prefix(40))\"" }
        return "\"\(name.prefix(40))\" (its headers are not UTF-8: byte 0x\(String(byte, radix: 16, uppercase: true)) at offset \(offset))"
    }
}
