import AutomationSupport
import Foundation
import Testing

@testable import Scenarios

/// `JSONWriter.quoted` and the HTML page's `PageData.quoted` work on UTF-8 bytes (the page of 20,000 scenarios is
/// written in under a second): they write what the scalar-by-scalar definitions below write, for every control
/// character, combining marks right after an escape, the neighbours of U+2028 and U+2029, and text around them.
@Suite struct ReportWritersBytewiseTests {
    /// JSON's escapes, one scalar at a time (the definition).
    static func quotedByScalars(_ text: String) -> String {
        let named: [Unicode.Scalar: String] = [
            "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u{08}": "\\b", "\u{0C}": "\\f",
        ]
        let escaped = text.unicodeScalars.map { scalar in
            named[scalar] ?? (scalar.value < 0x20 || scalar.value == 0x7F ? String(format: "\\u%04x", scalar.value) : String(scalar))
        }
        return "\"" + escaped.joined() + "\""
    }

    static func scriptSafeByScalars(_ json: String) -> String {
        let escapes: [Unicode.Scalar: String] = [
            "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u{2028}": "\\u2028", "\u{2029}": "\\u2029",
        ]
        return json.unicodeScalars.map { escapes[$0] ?? String($0) }.joined()
    }

    static let texts: [String] =
        [
            "", "plain", "\"\u{301}x", "\\\u{301}", "\n\u{301}\u{302}", "é😀\u{1F1EB}\u{1F1F7}", "a\u{7F}b",
            "\u{2027}\u{2028}\u{2029}\u{202A}",
            "<\u{2028}>&\u{2029}", "\u{2029}", "x\u{E2}", "</script><!--", "\u{FFFD}\u{0}",
        ]
        + [(0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()]

    @Test(arguments: texts)
    func quotedWritesWhatTheScalarDefinitionWrites(_ text: String) throws {
        let quoted = JSONWriter.quoted(text)
        #expect(quoted == Self.quotedByScalars(text))
        // Read back by a parser we did not write: the same text.
        let back = try JSONSerialization.jsonObject(with: Data(("[" + quoted + "]").utf8)) as? [String]
        #expect(back == [text])
        #expect(try JSONParser.parse(quoted).string == text)
    }

    /// The page quotes in one pass what JSON quoting, then `<script>` escaping, wrote (C1 controls included, which
    /// JSONWriter escapes too); a text past the cap is cut at a character and says so.
    @Test(arguments: texts + ["\u{80}\u{85}\u{9F}\u{A0}", String(repeating: "<a\u{2028}", count: 50)])
    func pageDataWritesWhatQuotingThenScriptEscapingWrite(_ text: String) {
        var page = PageData(capacity: 0)
        page.quoted(text)
        #expect(String(decoding: page.bytes, as: UTF8.self) == Self.scriptSafeByScalars(JSONWriter.quoted(text)))
        var cut = PageData(capacity: 0)
        cut.quoted("é<" + text, cap: 2)
        #expect(String(decoding: cut.bytes, as: UTF8.self) == Self.scriptSafeByScalars(JSONWriter.quoted("é<\n[… cut at 2 characters]")))
    }
}
